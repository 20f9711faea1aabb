package dev.gatewaylab.levers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.handler.codec.http.HttpResponseStatus;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * The upstream behind the test gateways: a Reactor Netty server on a random loopback port
 * that records every request it receives (method, target, header lines in order, body)
 * and answers by path:
 * <ul>
 * <li>{@code /echo/**}: 200, the request as text;</li>
 * <li>{@code /status/{code}}: that status (599 included), a short body unless 204 or
 * 304;</li>
 * <li>{@code /flaky/{key}}: 503 on the first request of each key, then 200;</li>
 * <li>{@code /slow/{ms}}: 200 after that many milliseconds;</li>
 * <li>{@code /trickle}: status and headers at once, then five chunks 300 ms apart;</li>
 * <li>{@code /big}: 200 with a sized body of {@link #BIG_BODY_BYTES};</li>
 * <li>{@code /chunked}: 200 with an unsized body in three chunks;</li>
 * <li>{@code /sse}: three server-sent events;</li>
 * <li>{@code /hop}: a response carrying hop-by-hop headers, {@code Connection} options
 * and two cookies;</li>
 * <li>{@code /close}: the connection closed without an answer.</li>
 * </ul>
 */
final class TestUpstream implements AutoCloseable {

	static final int BIG_BODY_BYTES = 200 * 1024;

	private final DisposableServer server;

	private final List<String> received = new CopyOnWriteArrayList<>();

	private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();

	private final int deadPort;

	TestUpstream() {
		this.server = HttpServer.create().host("127.0.0.1").port(0).handle(this::answer).bindNow();
		this.deadPort = freePort();
	}

	/**
	 * A loopback port nothing listens on (bound, then let go), the same for every
	 * gateway.
	 */
	int deadPort() {
		return this.deadPort;
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	int port() {
		return this.server.port();
	}

	/** Every request received since the last {@link #reset()}, as text, in order. */
	List<String> received() {
		return List.copyOf(this.received);
	}

	/** Requests received for a path since the last {@link #reset()}. */
	int hits(String path) {
		AtomicInteger count = this.hits.get(path);
		return (count != null) ? count.get() : 0;
	}

	void reset() {
		this.received.clear();
		this.hits.clear();
	}

	private Publisher<Void> answer(HttpServerRequest request, HttpServerResponse response) {
		String path = request.fullPath();
		return request.receive()
			.aggregate()
			.asString(StandardCharsets.ISO_8859_1)
			.defaultIfEmpty("")
			.flatMap((body) -> {
				this.received.add(describe(request, body));
				this.hits.computeIfAbsent(path, (key) -> new AtomicInteger()).incrementAndGet();
				return Mono.from(respond(path, request, response, body));
			});
	}

	private Publisher<Void> respond(String path, HttpServerRequest request, HttpServerResponse response, String body) {
		if (path.startsWith("/echo")) {
			return text(response, 200, describe(request, body));
		}
		if (path.startsWith("/status/")) {
			int code = Integer.parseInt(path.substring("/status/".length()));
			if (code == 204 || code == 304) {
				return response.status(code).send();
			}
			return text(response, code, "status " + code);
		}
		if (path.startsWith("/flaky/")) {
			return (hits(path) == 1) ? text(response, 503, "try again") : text(response, 200, "ok " + path);
		}
		if (path.startsWith("/slow/")) {
			long millis = Long.parseLong(path.substring("/slow/".length()));
			return Mono.delay(Duration.ofMillis(millis)).then(Mono.from(text(response, 200, "slow")));
		}
		return switch (path) {
			case "/trickle" -> response.status(200)
				.header("Content-Type", "text/plain")
				.sendString(Flux.range(1, 5).delayElements(Duration.ofMillis(300)).map((i) -> "part " + i + "\n"));
			case "/big" -> text(response, 200, big());
			case "/chunked" -> response.status(200)
				.header("Content-Type", "text/plain")
				.sendString(Flux.just("one,", "two,", "three").delayElements(Duration.ofMillis(5)));
			case "/sse" -> response.status(200)
				.header("Content-Type", "text/event-stream")
				.sendString(Flux.range(1, 3).map((i) -> "data: event " + i + "\n\n"));
			case "/hop" -> response.status(200)
				.header("Connection", "X-Hop-Hint")
				.header("X-Hop-Hint", "dropped")
				.header("Keep-Alive", "timeout=5")
				.header("Proxy-Authenticate", "Basic")
				.addHeader("Set-Cookie", "a=1")
				.addHeader("Set-Cookie", "b=2")
				.header("X-Custom", "kept")
				.header("Content-Type", "text/plain")
				.sendString(Mono.just("hop"));
			case "/close" -> response.withConnection((connection) -> connection.channel().close()).then();
			default -> text(response, 404, "no such path " + path);
		};
	}

	private static Publisher<Void> text(HttpServerResponse response, int status, String body) {
		byte[] bytes = body.getBytes(StandardCharsets.ISO_8859_1);
		return response.status(HttpResponseStatus.valueOf(status))
			.header("Content-Type", "text/plain")
			.header("Content-Length", Integer.toString(bytes.length))
			.sendByteArray(Mono.just(bytes));
	}

	/** A request as the upstream saw it: request line, header lines, body. */
	private static String describe(HttpServerRequest request, String body) {
		List<String> lines = new ArrayList<>();
		lines.add(request.method().name() + " " + request.uri());
		request.requestHeaders().forEach((header) -> lines.add(header.getKey() + ": " + header.getValue()));
		lines.add("");
		lines.add(body);
		return String.join("\n", lines);
	}

	static String big() {
		StringBuilder text = new StringBuilder(BIG_BODY_BYTES);
		for (int i = 0; text.length() < BIG_BODY_BYTES; i++) {
			text.append((char) ('a' + (i % 26)));
		}
		return text.toString();
	}

	@Override
	public void close() {
		this.server.disposeNow();
	}

}
