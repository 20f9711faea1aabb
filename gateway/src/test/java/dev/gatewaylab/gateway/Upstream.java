package dev.gatewaylab.gateway;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * A real HTTP upstream on a random loopback port, recording the request ids it was sent.
 */
final class Upstream implements AutoCloseable {

	static final String STUDY_JSON = "{\"id\":1,\"title\":\"Reactive Spring\",\"description\":\"d\",\"category\":\"backend\","
			+ "\"capacity\":12,\"memberCount\":7,\"createdAt\":\"2024-03-01T09:00:00Z\"}";

	final List<String> requestIds = new CopyOnWriteArrayList<>();

	final List<String> forwardedFor = new CopyOnWriteArrayList<>();

	/** The headers of the last GET /api/studies/1, as the upstream received them. */
	volatile io.netty.handler.codec.http.HttpHeaders lastHeaders = io.netty.handler.codec.http.EmptyHttpHeaders.INSTANCE;

	/**
	 * Hits of the flaky routes: GET /api/studies/2 fails with 503 once, POST
	 * /api/studies/2 always.
	 */
	final AtomicInteger flakyGets = new AtomicInteger();

	final AtomicInteger failingPosts = new AtomicInteger();

	/** GET /api/studies/3 always fails with 500. */
	final AtomicInteger brokenGets = new AtomicInteger();

	/**
	 * GET /api/studies/4 always fails with 503 (retried until the limit); also with a
	 * request body.
	 */
	final AtomicInteger unavailableGets = new AtomicInteger();

	/** POST /api/studies calls that started (the body may still be arriving). */
	final AtomicInteger postsStarted = new AtomicInteger();

	/** GET /api/studies/1/slow calls received (each answered after 3 s). */
	final AtomicInteger slowGetsStarted = new AtomicInteger();

	/** Request targets no route below matched (answered 404). */
	final List<String> unmatched = new CopyOnWriteArrayList<>();

	/**
	 * A body larger than the gateway writes in one piece with its headers
	 * (ResponseWriteFilter: 64 KiB).
	 */
	static final String BIG_BODY = "[" + "\"0123456789abcdef\",".repeat(12_000) + "\"end\"]";

	private final DisposableServer server;

	Upstream() {
		this.server = HttpServer.create()
			.host("127.0.0.1")
			.port(0)
			.route((routes) -> routes.get("/api/studies/1", (request, response) -> {
				this.requestIds.add(request.requestHeaders().get("X-Request-Id"));
				this.forwardedFor.add(String.valueOf(request.requestHeaders().get("X-Forwarded-For")));
				this.lastHeaders = request.requestHeaders().copy();
				return response.header("Content-Type", "application/json").sendString(Mono.just(STUDY_JSON));
			})
				.get("/api/studies/2",
						(request, response) -> (this.flakyGets.incrementAndGet() == 1) ? response.status(503).send()
								: response.header("Content-Type", "application/json").sendString(Mono.just(STUDY_JSON)))
				.get("/api/studies/3", (request, response) -> {
					this.brokenGets.incrementAndGet();
					return response.status(500).send();
				})
				.get("/api/studies/4", (request, response) -> {
					this.unavailableGets.incrementAndGet();
					return request.receive().then().then(response.status(503).send().then());
				})
				.get("/api/studies/big",
						(request, response) -> response.header("Content-Type", "application/json")
							.header("Content-Length", String.valueOf(BIG_BODY.length()))
							.sendString(Mono.just(BIG_BODY)))
				.get("/api/studies/headers",
						(request, response) -> response.header("Content-Type", "application/json")
							.addHeader("X-Multi", "a")
							.addHeader("X-Multi", "b")
							.addHeader("Set-Cookie", "one=1")
							.addHeader("Set-Cookie", "two=2")
							.header("Proxy-Authenticate", "Basic")
							.header("Connection", "X-Hop-Hint")
							.header("X-Hop-Hint", "1")
							.sendString(Mono.just(STUDY_JSON)))
				.get("/api/studies/chunked",
						(request, response) -> response.header("Content-Type", "application/json")
							.sendString(Flux.just("[\"a\",", "\"b\",", "\"c\"]")))
				.post("/api/studies/2", (request, response) -> {
					this.failingPosts.incrementAndGet();
					return request.receive().then().then(response.status(503).send().then());
				})
				.post("/api/studies", (request, response) -> {
					this.postsStarted.incrementAndGet();
					return response.status(201)
						.header("Content-Type", "application/json")
						// collected as text: aggregate()'s buffers, discarded when a
						// client hung up mid-body, were
						// released twice (Reactor Netty WARN "Error while discarding
						// element")
						.sendString(request.receive().asString().collect(Collectors.joining()));
				})
				.get("/api/studies/1/slow", (request, response) -> {
					this.slowGetsStarted.incrementAndGet();
					return response.sendString(Mono.delay(Duration.ofSeconds(3)).thenReturn(STUDY_JSON));
				})
				.route((request) -> true, (request, response) -> {
					this.unmatched.add(request.uri());
					return request.receive().then().then(response.status(404).send().then());
				}))
			.bindNow();
	}

	String url() {
		return "http://127.0.0.1:" + this.server.port();
	}

	/** A loopback URL nothing listens on: connecting to it is refused. */
	static String deadUrl() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return "http://127.0.0.1:" + socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public void close() {
		this.server.disposeNow();
	}

}
