package dev.gatewaylab.floor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.netty.handler.codec.http.HttpResponseStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** The floor against a real upstream on a random port. */
class FloorProxyTests {

	private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private DisposableServer upstream;

	private FloorProxy proxy;

	private DisposableServer floor;

	@BeforeEach
	void start() {
		this.upstream = HttpServer.create()
			.host("127.0.0.1")
			.port(0)
			.route((routes) -> routes
				.get("/echo", (request, response) -> response.header("Content-Type", "text/plain")
					.header("X-Upstream", "yes")
					.sendString(Mono.just("uri=" + request.uri() + " host=" + request.requestHeaders().get("Host")
							+ " xff=" + request.requestHeaders().get("X-Forwarded-For") + " custom="
							+ request.requestHeaders().get("X-Custom"))))
				.get("/missing",
						(request, response) -> response.status(HttpResponseStatus.NOT_FOUND)
							.header("Content-Type", "application/problem+json")
							.sendString(Mono.just("{\"status\":404}")))
				.get("/big",
						(request, response) -> response.header("Content-Length", String.valueOf(100 * 1024))
							.sendString(Mono.just("x".repeat(100 * 1024))))
				.get("/chunked",
						(request, response) -> response.sendString(Flux.range(0, 50).map((i) -> "chunk" + i + ";")))
				.post("/echo", (request, response) -> response.send(request.receive().retain()))
				.get("/hang-up", (request, response) -> response.withConnection((c) -> c.dispose()).then()))
			.bindNow();
		this.proxy = new FloorProxy(URI.create("http://127.0.0.1:" + this.upstream.port()));
		this.floor = this.proxy.bind(0);
	}

	@AfterEach
	void stop() {
		this.floor.disposeNow();
		this.proxy.close();
		this.upstream.disposeNow();
	}

	@Test
	void forwardsPathQueryAndHeadersAndReturnsTheUpstreamsAnswer() throws Exception {
		HttpResponse<String> r = get("/echo?id=42", "X-Custom", "kept");
		assertThat(r.statusCode()).isEqualTo(200);
		assertThat(r.headers().firstValue("X-Upstream")).hasValue("yes");
		assertThat(r.body())
			.isEqualTo("uri=/echo?id=42 host=127.0.0.1:" + this.upstream.port() + " xff=127.0.0.1 custom=kept");
	}

	@Test
	void passesTheUpstreamsStatusAndContentTypeThrough() throws Exception {
		HttpResponse<String> r = get("/missing");
		assertThat(r.statusCode()).isEqualTo(404);
		assertThat(r.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(r.body()).isEqualTo("{\"status\":404}");
	}

	@Test
	void largeAndUnsizedBodiesArriveWhole() throws Exception {
		assertThat(get("/big").body()).hasSize(100 * 1024).containsOnlyOnce("x".repeat(100 * 1024));
		assertThat(get("/chunked").body()).startsWith("chunk0;").endsWith("chunk49;").hasSize(7 * 10 + 8 * 40);
	}

	@Test
	void forwardsARequestBody() throws Exception {
		String body = "{\"title\":\"" + "é".repeat(5000) + "\"}";
		HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(uri("/echo"))
			.POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
			.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
		assertThat(r.statusCode()).isEqualTo(200);
		assertThat(r.body()).isEqualTo(body);
	}

	@Test
	void anUpstreamThatHangsUpGives502() throws Exception {
		HttpResponse<String> r = get("/hang-up");
		assertThat(r.statusCode()).isEqualTo(502);
		assertThat(r.headers().firstValue("Content-Type")).hasValue("application/problem+json");
	}

	@Test
	void anUnreachableUpstreamGives503() throws Exception {
		int closed;
		try (ServerSocket s = new ServerSocket(0)) {
			closed = s.getLocalPort();
		}
		FloorProxy nowhere = new FloorProxy(URI.create("http://127.0.0.1:" + closed));
		DisposableServer server = nowhere.bind(0);
		try {
			HttpResponse<String> r = CLIENT.send(
					HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/echo")).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(r.statusCode()).isEqualTo(503);
			assertThat(r.body()).contains("\"status\":503", "cannot be reached");
		}
		finally {
			server.disposeNow();
			nowhere.close();
		}
	}

	@Test
	void listensWhereItIsTold() {
		DisposableServer loopback = this.proxy.bind("127.0.0.1", 0);
		try {
			assertThat(((InetSocketAddress) loopback.address()).getAddress().getHostAddress()).isEqualTo("127.0.0.1");
			assertThat(((InetSocketAddress) this.floor.address()).getAddress().isAnyLocalAddress())
				.as("by default, every interface")
				.isTrue();
		}
		finally {
			loopback.disposeNow();
		}
	}

	private HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
		HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(5));
		if (headers.length > 0) {
			b.headers(headers);
		}
		return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.floor.port() + path);
	}

}
