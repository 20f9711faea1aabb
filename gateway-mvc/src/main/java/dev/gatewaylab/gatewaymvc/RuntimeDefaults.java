package dev.gatewaylab.gatewaymvc;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.gatewaylab.accesslog.RuntimeKnob;

/**
 * JVM-wide settings that Log4j2 and the JDK's HTTP clients read once, from system
 * properties, before Spring starts. Each has an environment variable; the value
 * {@code default} leaves the library's own default, and a system property given on the
 * command line always wins ({@link RuntimeKnob}). The access log's are the WebFlux
 * gateway's, under the same names, so both gateways log alike.
 */
final class RuntimeDefaults {

	/** The JDK HTTP clients', then the async access log's. */
	static final List<RuntimeKnob> KNOBS = Stream.concat(Stream.of(
			// An idle upstream connection of the JDK's HttpClient is closed after
			// this many seconds (the JDK's default: 30), below the upstream's
			// keep-alive, as the WebFlux gateway's pool does after 10 s: a connection
			// the upstream closed first fails the next request sent on it.
			new RuntimeKnob("GATEWAY_MVC_CLIENT_IDLE_TIMEOUT", "jdk.httpclient.keepalive.timeout", "10"),
			// Idle keep-alive connections the JDK's HttpURLConnection keeps per upstream
			// (the simple client, GATEWAY_MVC_HTTP_CLIENT=simple): its own default, 5,
			// closes the rest after each request under any real concurrency.
			new RuntimeKnob("GATEWAY_MVC_SIMPLE_CLIENT_CONNECTIONS", "http.maxConnections", "500"),
			// 16,384 access-log events allocated up front (2 MiB) instead of the
			// 262,144 (32 MiB) Log4j2 gives an app with the servlet API: Tomcat's and
			// the JDK client's buffers are on the heap, and at 1,000 connections those
			// 30 MiB decided between serving and collecting garbage
			// (docs/gateway-mvc.md).
			RuntimeKnob.asyncLoggerRingBuffer("16384")), RuntimeKnob.ASYNC_LOGGER.stream())
		.toList();

	private RuntimeDefaults() {
	}

	static void apply(Map<String, String> env) {
		RuntimeKnob.applyAll(KNOBS, env);
	}

}
