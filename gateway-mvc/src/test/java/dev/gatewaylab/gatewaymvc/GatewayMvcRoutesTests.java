package dev.gatewaylab.gatewaymvc;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicInteger;

import dev.gatewaylab.accesslog.AccessLog;
import dev.gatewaylab.gatewaymvc.StubUpstream.Answer;
import dev.gatewaylab.testsupport.CapturingAppender;
import dev.gatewaylab.testsupport.RawHttp;
import dev.gatewaylab.testsupport.RawResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway on a random port in front of a stub study-service and a monolith that is
 * not there: the identical answer, the request id, the forwarded headers, and the
 * problem+json answers of the WebFlux gateway for an upstream that is down (503), too
 * slow (504) or hangs up (502), and for a path no route has (404).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "management.server.port=0",
		"STUDY_SERVICE_RESPONSE_TIMEOUT_MS=400", "logging.file.path=target/logs" })
class GatewayMvcRoutesTests {

	static final String STUDY = "{\"id\":42,\"title\":\"Observability #42\"}";

	static final AtomicInteger flaky = new AtomicInteger();

	static final StubUpstream study = Upstreams.start((request) -> switch (request.target()) {
		case "/api/studies/slow" -> Answer.json(200, STUDY).after(1_500);
		case "/api/studies/drop" -> StubUpstream.DROP;
		case "/api/studies/flaky" -> (flaky.incrementAndGet() <= 2) ? Answer.json(503, "{}") : Answer.json(200, STUDY);
		case "/api/studies/refused" -> Answer.json(503, "{}");
		default -> Answer.json(200, STUDY);
	});

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void upstreams(DynamicPropertyRegistry registry) {
		Threads.register(registry);
		registry.add("STUDY_SERVICE_URL", study::url);
		registry.add("MONOLITH_URL", () -> "http://127.0.0.1:" + Upstreams.closedPort());
	}

	@AfterAll
	static void stop() throws IOException {
		study.close();
	}

	@Test
	void answersExactlyWhatTheUpstreamAnswered() throws Exception {
		HttpResponse<String> response = get("/api/studies/42");

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo(STUDY);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
	}

	@Test
	void sendsTheRequestIdUpstreamAndBackAndLogsOneLine() throws Exception {
		CapturingAppender appender = CapturingAppender.attachTo(AccessLog.LOGGER_NAME);
		try {
			HttpResponse<String> response = send(
					HttpRequest.newBuilder(uri("/api/studies/7?q=1")).header("X-Request-Id", "mvc-rid-7").build());

			assertThat(response.headers().allValues("X-Request-Id")).containsExactly("mvc-rid-7");
			assertThat(study.requestsTo("/api/studies/7?q=1")).singleElement()
				.satisfies((sent) -> assertThat(sent.headers()).containsEntry("X-Request-Id", "mvc-rid-7"));
			assertThat(appender.awaitMessageContaining("id=mvc-rid-7 ")).filteredOn((l) -> l.contains("id=mvc-rid-7 "))
				.singleElement()
				.asString()
				.matches("id=mvc-rid-7 method=GET path=/api/studies/7 client=127\\.0\\.0\\.1 status=200 "
						+ "durationMs=\\d+\\.\\d{3}");
		}
		finally {
			appender.detach();
		}
	}

	@Test
	void makesARequestIdWhenTheClientSentNone() throws Exception {
		HttpResponse<String> response = get("/api/studies/8");

		String id = response.headers().firstValue("X-Request-Id").orElseThrow();
		assertThat(id).matches("[0-9a-f-]{36}");
		assertThat(study.requestsTo("/api/studies/8")).singleElement()
			.satisfies((sent) -> assertThat(sent.headers()).containsEntry("X-Request-Id", id));
	}

	/**
	 * Spring Cloud Gateway Server WebMVC's own X-Forwarded filter: from a trusted peer
	 * (loopback here) it keeps only the X-Forwarded-For header lines that are one trusted
	 * address each, and appends the peer — a client's list goes. The WebFlux gateway
	 * keeps a trusted peer's list (docs/gateway-mvc.md).
	 */
	@Test
	void tellsTheUpstreamThePeerAndDropsTheClientsForwardedHeader() throws Exception {
		send(HttpRequest.newBuilder(uri("/api/studies/9"))
			.header("X-Forwarded-For", "203.0.113.9, 127.0.0.5")
			.header("Forwarded", "for=198.51.100.1")
			.build());

		StubUpstream.Received sent = study.requestsTo("/api/studies/9").get(0);
		assertThat(sent.headers()).containsEntry("X-Forwarded-For", "127.0.0.1")
			.containsEntry("X-Forwarded-Proto", "http")
			.containsEntry("Host", "127.0.0.1:" + study.port())
			.doesNotContainKeys("Forwarded", "X-Forwarded-Port", "X-Forwarded-Prefix");
	}

	@Test
	void asksTheUpstreamForNoEncodingTheClientDidNotAskFor() throws Exception {
		get("/api/studies/10");

		assertThat(study.requestsTo("/api/studies/10").get(0).headers()).doesNotContainKey("Accept-Encoding");
	}

	@Test
	void passesARequestBodyOn() throws Exception {
		HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/api/studies"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"title\":\"posted\"}"))
			.build());

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(study.requestsTo("/api/studies").stream().filter((r) -> r.method().equals("POST"))).singleElement()
			.satisfies((sent) -> assertThat(sent.body()).isEqualTo("{\"title\":\"posted\"}"));
	}

	@Test
	void anUnreachableUpstreamIs503ProblemJson() throws Exception {
		assertProblem(get("/login"), 503, "Upstream unavailable", "/login");
	}

	@Test
	void anUpstreamSlowerThanTheRoutesResponseTimeoutIs504AndNotRetried() throws Exception {
		assertProblem(get("/api/studies/slow"), 504, "Upstream timeout", "/api/studies/slow");
		assertThat(study.requestsTo("/api/studies/slow")).hasSize(1);
	}

	/**
	 * Three attempts (GATEWAY_RETRIES=2); the JDK's HttpClient itself sends a GET whose
	 * connection closed before any answer once more, so the upstream sees up to six.
	 */
	@Test
	void anUpstreamThatHangsUpIs502AfterTheRetries() throws Exception {
		assertProblem(get("/api/studies/drop"), 502, "Bad gateway", "/api/studies/drop");
		assertThat(study.requestsTo("/api/studies/drop")).hasSizeBetween(3, 6);
	}

	@Test
	void anIdempotentRequestTheUpstreamRefusedIsTriedAgain() throws Exception {
		HttpResponse<String> response = get("/api/studies/flaky");

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(study.requestsTo("/api/studies/flaky")).hasSize(3);
	}

	@Test
	void aRequestWithABodyIsNeverRetried() throws Exception {
		HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/api/studies/refused"))
			.method("PUT", HttpRequest.BodyPublishers.ofString("{}"))
			.build());

		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(study.requestsTo("/api/studies/refused")).hasSize(1);
	}

	@Test
	void aPathNoRouteHasIs404ProblemJson() throws Exception {
		HttpResponse<String> response = get("/nowhere");

		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(response.headers().firstValue("X-Request-Id")).isPresent();
	}

	/** Tomcat's own default closes a client connection after 100 requests. */
	@Test
	void aKeptAliveClientConnectionIsNeverClosedAfterSomeNumberOfRequests() throws Exception {
		try (RawHttp http = new RawHttp(this.port, 10_000)) {
			for (int i = 0; i < 120; i++) {
				http.send("GET /api/studies/kept-alive-" + i + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
				RawResponse response = http.readResponse();
				assertThat(response.status()).isEqualTo(200);
				assertThat(response.header("Connection")).as("request %d", i + 1).isNull();
			}
		}
	}

	@Test
	void theActuatorIsNotOnTheApplicationPort() throws Exception {
		assertThat(get("/actuator/health").statusCode()).isEqualTo(404);
	}

	private static void assertProblem(HttpResponse<String> response, int status, String title, String path) {
		assertThat(response.statusCode()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		// the WebFlux gateway's body, byte for byte
		assertThat(response.body()).startsWith("{\"detail\":\"The upstream service ")
			.endsWith("\",\"instance\":\"" + path + "\",\"status\":" + status + ",\"title\":\"" + title + "\"}");
	}

	private HttpResponse<String> get(String path) throws Exception {
		return send(HttpRequest.newBuilder(uri(path)).build());
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	static HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
		return Upstreams.CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
	}

	/** The stubs and a client for the tests. */
	static final class Upstreams {

		static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

		private Upstreams() {
		}

		static StubUpstream start(java.util.function.Function<StubUpstream.Received, Answer> answers) {
			try {
				return new StubUpstream(answers);
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		}

		/** A loopback port nothing listens on: connections to it are refused. */
		static int closedPort() {
			try (ServerSocket socket = new ServerSocket(0)) {
				return socket.getLocalPort();
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

}
