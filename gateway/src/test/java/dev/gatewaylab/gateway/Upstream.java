package dev.gatewaylab.gateway;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** A real HTTP upstream on a random loopback port, recording the request ids it was sent. */
final class Upstream implements AutoCloseable {

	static final String STUDY_JSON = "{\"id\":1,\"title\":\"Reactive Spring\",\"description\":\"d\",\"category\":\"backend\","
			+ "\"capacity\":12,\"memberCount\":7,\"createdAt\":\"2024-03-01T09:00:00Z\"}";

	final List<String> requestIds = new CopyOnWriteArrayList<>();

	final List<String> forwardedFor = new CopyOnWriteArrayList<>();

	/** Hits of the flaky routes: GET /api/studies/2 fails with 503 once, POST /api/studies/2 always. */
	final AtomicInteger flakyGets = new AtomicInteger();

	final AtomicInteger failingPosts = new AtomicInteger();

	/** GET /api/studies/3 always fails with 500. */
	final AtomicInteger brokenGets = new AtomicInteger();

	private final DisposableServer server;

	Upstream() {
		this.server = HttpServer.create()
			.host("127.0.0.1")
			.port(0)
			.route((routes) -> routes
				.get("/api/studies/1", (request, response) -> {
					this.requestIds.add(request.requestHeaders().get("X-Request-Id"));
					this.forwardedFor.add(String.valueOf(request.requestHeaders().get("X-Forwarded-For")));
					return response.header("Content-Type", "application/json").sendString(Mono.just(STUDY_JSON));
				})
				.get("/api/studies/2", (request, response) -> (this.flakyGets.incrementAndGet() == 1)
						? response.status(503).send()
						: response.header("Content-Type", "application/json").sendString(Mono.just(STUDY_JSON)))
				.get("/api/studies/3", (request, response) -> {
					this.brokenGets.incrementAndGet();
					return response.status(500).send();
				})
				.post("/api/studies/2", (request, response) -> {
					this.failingPosts.incrementAndGet();
					return request.receive().then().then(response.status(503).send().then());
				})
				.post("/api/studies", (request, response) -> response.status(201)
					.header("Content-Type", "application/json")
					.sendString(request.receive().aggregate().asString()))
				.get("/api/studies/1/slow", (request, response) -> response
					.sendString(Mono.delay(Duration.ofSeconds(3)).thenReturn(STUDY_JSON))))
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
