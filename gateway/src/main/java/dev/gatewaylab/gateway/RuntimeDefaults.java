package dev.gatewaylab.gateway;

import java.util.Map;

/**
 * JVM-wide settings that Netty, Reactor Netty and Log4j2 read once, from system
 * properties, before Spring starts. Each has a measured default (docs/gateway-cost.md)
 * and an environment variable to change it; the value {@code default} leaves the
 * library's own default, and a system property given on the command line
 * ({@code -Dreactor.netty.ioWorkerCount=4}) always wins.
 */
final class RuntimeDefaults {

	/** The value of a variable that leaves the library's own default. */
	static final String LIBRARY_DEFAULT = "default";

	/** environment variable, system property, default. */
	static final String[][] KNOBS = {
			// Event-loop threads shared by the server and the upstream client. Reactor
			// Netty's default, max(cores, 4), means 4 loops on 2 cores and a thread hop
			// on
			// most requests; half the cores leave the rest to the upstream and the client
			// on a shared host (on 2 cores: 1 loop, measured cheapest). A dedicated host
			// wants the cores.
			{ "GATEWAY_IO_WORKER_COUNT", "reactor.netty.ioWorkerCount",
					String.valueOf(Math.max(1, Runtime.getRuntime().availableProcessors() / 2)) },
			// A thread of its own that accepts connections (Reactor Netty's "select"
			// loop). Reactor Netty's default, -1, accepts on the event loop that also
			// serves every open connection: it takes 16 new connections per turn, so a
			// burst of hundreds of new clients waited seconds in the listen queue while
			// the loop served the others (`./lab sweep`, 1,000 threads: the first request
			// of each new connection p99 3.9-4.7 s; with 1: 265 ms). Idle with keep-alive
			// connections.
			{ "GATEWAY_IO_SELECT_COUNT", "reactor.netty.ioSelectCount", "1" },
			// Leak tracking samples buffers and records stacks; a production proxy runs
			// without it.
			{ "GATEWAY_NETTY_LEAK_DETECTION", "io.netty.leakDetection.level", "disabled" },
			// epoll (true) or NIO (false).
			{ "GATEWAY_NETTY_NATIVE", "reactor.netty.native", "true" },
			// How the async logger's thread waits for events. Sleep: the event loop never
			// signals it; it parks GATEWAY_LOG_SLEEP_NS between batches. Log4j2's
			// default, Timeout, wakes it (lock, notify, futex) for every access-log line:
			// a context switch and a write per request (docs/gateway-cost.md).
			{ "GATEWAY_LOG_WAIT_STRATEGY", "log4j2.asyncLoggerWaitStrategy", "Sleep" },
			// With Sleep: park 5 ms between batches and never spin or yield first
			// (Log4j2's own Sleep defaults, 100 ns and 200 retries, keep a core busy when
			// idle).
			{ "GATEWAY_LOG_SLEEP_NS", "AsyncLogger.SleepTimeNs", "5000000" },
			{ "GATEWAY_LOG_RETRIES", "AsyncLogger.Retries", "0" }, };

	private RuntimeDefaults() {
	}

	static void apply(Map<String, String> env) {
		for (String[] knob : KNOBS) {
			if (System.getProperty(knob[1]) == null) {
				String value = env.get(knob[0]);
				String chosen = (value != null && !value.isBlank()) ? value.trim() : knob[2];
				if (!LIBRARY_DEFAULT.equals(chosen)) {
					System.setProperty(knob[1], chosen);
				}
			}
		}
	}

}
