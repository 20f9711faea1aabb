package dev.gatewaylab.accesslog;

import java.util.List;
import java.util.Map;

/**
 * A JVM-wide setting that a library reads once, from a system property, before Spring
 * starts: the environment variable that changes it, the property, and the lab's measured
 * default. The variable's value {@code default} leaves the library's own default, a blank
 * one is the lab's, and a system property given on the command line always wins.
 *
 * @param variable the environment variable
 * @param property the system property the library reads
 * @param value the lab's default
 */
public record RuntimeKnob(String variable, String property, String value) {

	/** The value of a variable that leaves the library's own default. */
	public static final String LIBRARY_DEFAULT = "default";

	/**
	 * How the async access log's thread waits for events, the same in both gateways.
	 * Sleep: the request thread never signals it; it parks {@code GATEWAY_LOG_SLEEP_NS}
	 * between batches. Log4j2's default, Timeout, wakes it (lock, notify, futex) for
	 * every access-log line: a context switch and a write per request
	 * (docs/gateway-cost.md). With Sleep, park 5 ms between batches and never spin or
	 * yield first (Log4j2's own Sleep defaults, 100 ns and 200 retries, keep a core busy
	 * when idle).
	 */
	public static final List<RuntimeKnob> ASYNC_LOGGER = List.of(
			new RuntimeKnob("GATEWAY_LOG_WAIT_STRATEGY", "log4j2.asyncLoggerWaitStrategy", "Sleep"),
			new RuntimeKnob("GATEWAY_LOG_SLEEP_NS", "AsyncLogger.SleepTimeNs", "5000000"),
			new RuntimeKnob("GATEWAY_LOG_RETRIES", "AsyncLogger.Retries", "0"));

	/**
	 * The async access log's ring buffer: the events it allocates up front. Log4j2's
	 * default depends on the app: 4,096 where its thread-local objects are on (the
	 * WebFlux gateway), 262,144 in an app with the servlet API on its class path, where
	 * Log4j2 turns them off (the MVC gateway: 32 MiB of events and their timestamps for
	 * the process's life). A request thread waits only when the logger thread is that
	 * many lines behind.
	 * @param value the gateway's default number of slots, or {@link #LIBRARY_DEFAULT}
	 * @return the knob {@code GATEWAY_LOG_RING_BUFFER_SIZE}
	 */
	public static RuntimeKnob asyncLoggerRingBuffer(String value) {
		return new RuntimeKnob("GATEWAY_LOG_RING_BUFFER_SIZE", "log4j2.asyncLoggerRingBufferSize", value);
	}

	/**
	 * Sets each knob's system property from the environment, or to the lab's default,
	 * unless the property is already set.
	 * @param knobs the knobs
	 * @param env the environment variables
	 */
	public static void applyAll(List<RuntimeKnob> knobs, Map<String, String> env) {
		for (RuntimeKnob knob : knobs) {
			knob.apply(env);
		}
	}

	void apply(Map<String, String> env) {
		if (System.getProperty(this.property) != null) {
			return;
		}
		String given = env.get(this.variable);
		String chosen = (given != null && !given.isBlank()) ? given.trim() : this.value;
		if (!LIBRARY_DEFAULT.equals(chosen)) {
			System.setProperty(this.property, chosen);
		}
	}

}
