package dev.gatewaylab.gateway;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.gatewaylab.accesslog.RuntimeKnob;

/**
 * JVM-wide settings that Netty, Reactor Netty and Log4j2 read once, from system
 * properties, before Spring starts. Each has a measured default (docs/gateway-cost.md)
 * and an environment variable to change it; the value {@code default} leaves the
 * library's own default, and a system property given on the command line
 * ({@code -Dreactor.netty.ioWorkerCount=4}) always wins ({@link RuntimeKnob}).
 */
final class RuntimeDefaults {

	/** Reactor Netty's and Netty's, then the async access log's. */
	static final List<RuntimeKnob> KNOBS = Stream.concat(Stream.of(
			// Event-loop threads shared by the server and the upstream client. Reactor
			// Netty's default, max(cores, 4), means 4 loops on 2 cores and a thread hop
			// on
			// most requests; half the cores leave the rest to the upstream and the client
			// on a shared host (on 2 cores: 1 loop, measured cheapest). A dedicated host
			// wants the cores.
			new RuntimeKnob("GATEWAY_IO_WORKER_COUNT", "reactor.netty.ioWorkerCount",
					String.valueOf(Math.max(1, Runtime.getRuntime().availableProcessors() / 2))),
			// A thread of its own that accepts connections (Reactor Netty's "select"
			// loop). Reactor Netty's default, -1, accepts on the event loop that also
			// serves every open connection: it takes 16 new connections per turn, so a
			// burst of hundreds of new clients waited seconds in the listen queue while
			// the loop served the others (`./lab sweep`, 1,000 threads: the first request
			// of each new connection p99 3.9-4.7 s; with 1: 265 ms). Idle with keep-alive
			// connections.
			new RuntimeKnob("GATEWAY_IO_SELECT_COUNT", "reactor.netty.ioSelectCount", "1"),
			// Leak tracking samples buffers and records stacks; a production proxy runs
			// without it.
			new RuntimeKnob("GATEWAY_NETTY_LEAK_DETECTION", "io.netty.leakDetection.level", "disabled"),
			// epoll (true) or NIO (false).
			new RuntimeKnob("GATEWAY_NETTY_NATIVE", "reactor.netty.native", "true"),
			// Log4j2's own ring buffer: 4,096 events in an app without the servlet
			// API (docs/gateway-mvc.md).
			RuntimeKnob.asyncLoggerRingBuffer(RuntimeKnob.LIBRARY_DEFAULT)), RuntimeKnob.ASYNC_LOGGER.stream())
		.toList();

	private RuntimeDefaults() {
	}

	static void apply(Map<String, String> env) {
		RuntimeKnob.applyAll(KNOBS, env);
	}

}
