package dev.gatewaylab.gatewaymvc;

import java.util.Map;

/**
 * JVM-wide settings that Log4j2 and the JDK's HTTP clients read once, from system
 * properties, before Spring starts. Each has an environment variable; the value
 * {@code default} leaves the library's own default, and a system property given on the
 * command line always wins. The access log's three are the WebFlux gateway's, under the
 * same names, so both gateways log alike (docs/gateway-cost.md).
 */
final class RuntimeDefaults {

	/** The value of a variable that leaves the library's own default. */
	static final String LIBRARY_DEFAULT = "default";

	/** environment variable, system property, default. */
	static final String[][] KNOBS = {
			// The async logger's thread parks between batches instead of being woken for
			// every access-log line (Log4j2's Timeout): the WebFlux gateway's default.
			{ "GATEWAY_LOG_WAIT_STRATEGY", "log4j2.asyncLoggerWaitStrategy", "Sleep" },
			{ "GATEWAY_LOG_SLEEP_NS", "AsyncLogger.SleepTimeNs", "5000000" },
			{ "GATEWAY_LOG_RETRIES", "AsyncLogger.Retries", "0" },
			// An idle upstream connection of the JDK's HttpClient is closed after this
			// many
			// seconds (the JDK's default: 30), below the upstream's keep-alive, as the
			// WebFlux gateway's pool does after 10 s: a connection the upstream closed
			// first fails the next request sent on it.
			{ "GATEWAY_MVC_CLIENT_IDLE_TIMEOUT", "jdk.httpclient.keepalive.timeout", "10" },
			// Idle keep-alive connections the JDK's HttpURLConnection keeps per upstream
			// (the simple client, GATEWAY_MVC_HTTP_CLIENT=simple): its own default, 5,
			// closes the rest after each request under any real concurrency.
			{ "GATEWAY_MVC_SIMPLE_CLIENT_CONNECTIONS", "http.maxConnections", "500" }, };

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
