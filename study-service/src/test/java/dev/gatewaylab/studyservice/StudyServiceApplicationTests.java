package dev.gatewaylab.studyservice;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged app over HTTP on random ports: the shared contract end to end, on H2 with
 * the real seed.
 */
@ExtendWith(OutputCaptureExtension.class)
@AutoConfigureMetrics // Boot turns metrics export off in tests unless asked;
						// /actuator/prometheus is under test
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "STUDY_MAX_BODY_SIZE=10KB" })
class StudyServiceApplicationTests {

	private static final String STUDY_1 = "{\"id\":1,\"title\":\"Hands-on TLS #1\","
			+ "\"description\":\"A weekend study group on TLS, 6 sessions.\",\"category\":\"security\",\"capacity\":27,"
			+ "\"memberCount\":13,\"createdAt\":\"2024-03-01T09:00:00Z\"}";

	private final RestTestClient api;

	private final RestTestClient management;

	private final int port;

	StudyServiceApplicationTests(@LocalServerPort int port, @LocalManagementPort int managementPort) {
		this.port = port;
		this.api = RestTestClient.bindToServer().baseUrl("http://localhost:" + port).build();
		this.management = RestTestClient.bindToServer().baseUrl("http://localhost:" + managementPort).build();
	}

	@Test
	void seededStudyHasTheExactContractJson() {
		this.api.get()
			.uri("/api/studies/1")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.contentType(MediaType.APPLICATION_JSON)
			.expectBody(String.class)
			.isEqualTo(STUDY_1);
		this.api.get().uri("/api/studies/10000").exchange().expectStatus().isOk();
		this.api.get().uri("/api/studies/10001").exchange().expectStatus().isNotFound();
	}

	@Test
	void listPagesAndFilters() {
		this.api.get()
			.uri("/api/studies?category=ai&page=2&size=5")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.content.length()")
			.isEqualTo(5)
			.jsonPath("$.content[*].category")
			.value((categories) -> assertThat(categories.toString()).doesNotContain("backend"))
			.jsonPath("$.page")
			.isEqualTo(2)
			.jsonPath("$.size")
			.isEqualTo(5)
			.jsonPath("$.totalElements")
			.value((total) -> assertThat(((Number) total).longValue()).isBetween(1L, 10_000L));
	}

	@Test
	void createReadUpdateDelete() {
		String location = this.api.post()
			.uri("/api/studies")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"title\":\"Gateway cost\",\"capacity\":8,\"unknown\":true}")
			.exchange()
			.expectStatus()
			.isCreated()
			.expectBody()
			.jsonPath("$.category")
			.isEqualTo("general")
			.jsonPath("$.memberCount")
			.isEqualTo(0)
			.returnResult()
			.getResponseHeaders()
			.getLocation()
			.toString();
		Matcher matcher = Pattern.compile("/api/studies/(\\d+)").matcher(location);
		assertThat(matcher.matches()).as(location).isTrue();
		assertThat(Long.parseLong(matcher.group(1))).isGreaterThan(10_000);

		this.api.get()
			.uri(location)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.title")
			.isEqualTo("Gateway cost");
		this.api.put()
			.uri(location)
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"title\":\"Gateway cost, again\",\"capacity\":9,\"category\":\"devops\"}")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.title")
			.isEqualTo("Gateway cost, again")
			.jsonPath("$.category")
			.isEqualTo("devops");
		this.api.delete().uri(location).exchange().expectStatus().isNoContent();
		expectProblem(this.api.get().uri(location).exchange(), 404);
		expectProblem(this.api.delete().uri(location).exchange(), 404);
	}

	@Test
	void clientErrorsAreProblemJson() {
		expectProblem(this.api.get().uri("/api/studies/abc").exchange(), 400);
		expectProblem(this.api.get().uri("/api/studies?size=-1").exchange(), 400);
		expectProblem(this.api.get().uri("/api/studies?size=1000").exchange(), 400);
		expectProblem(this.api.get().uri("/api/studies/424242").exchange(), 404);
		expectProblem(this.api.get().uri("/api/nothing").exchange(), 404);
		expectProblem(this.api.get().uri("/nothing").exchange(), 404);
		expectProblem(this.api.method(HttpMethod.PATCH).uri("/api/studies/1").exchange(), 405);
		expectProblem(this.api.post().uri("/api/studies").contentType(MediaType.TEXT_PLAIN).body("x").exchange(), 415);
		expectProblem(postJson("{\"title\":"), 400);
		expectProblem(postJson("{\"title\":\"t\",\"capacity\":\"many\"}"), 400);
		expectProblem(postJson("{\"title\":\"t\",\"capacity\":12345678901234567890}"), 400);
		expectProblem(postJson("{\"title\":\"\",\"capacity\":0}"), 400).jsonPath("$.errors.length()").isEqualTo(2);
	}

	@Test
	void slowEndpointHonoursItsBounds() {
		long start = System.nanoTime();
		this.api.get().uri("/api/studies/1/slow?minMs=100&maxMs=150").exchange().expectStatus().isOk();
		Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
		// Lower bound is exact; the upper one leaves room for a busy 2-core CI machine.
		assertThat(elapsed).isBetween(Duration.ofMillis(100), Duration.ofMillis(150 + 2_000));
		expectProblem(this.api.get().uri("/api/studies/1/slow?minMs=300&maxMs=200").exchange(), 400);
		expectProblem(this.api.get().uri("/api/studies/1/slow?minMs=-1").exchange(), 400);
		expectProblem(this.api.get().uri("/api/studies/1/slow?maxMs=10001").exchange(), 400);
		expectProblem(this.api.get().uri("/api/studies/424242/slow?minMs=0&maxMs=0").exchange(), 404);
	}

	@Test
	void aBodyOverTheLimitIs413ProblemWithOrWithoutContentLength() throws Exception {
		String big = "{\"title\":\"" + "x".repeat(20_000) + "\",\"capacity\":3}";
		expectProblem(postJson(big), 413);
		java.net.http.HttpResponse<String> chunked = java.net.http.HttpClient.newHttpClient()
			.send(java.net.http.HttpRequest
				.newBuilder(java.net.URI.create("http://localhost:" + this.port + "/api/studies"))
				.header("Content-Type", "application/json")
				.POST(java.net.http.HttpRequest.BodyPublishers.ofInputStream(
						() -> new java.io.ByteArrayInputStream(big.getBytes(java.nio.charset.StandardCharsets.UTF_8))))
				.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
		assertThat(chunked.statusCode()).isEqualTo(413);
		assertThat(chunked.headers().firstValue("Content-Type")).hasValue("application/problem+json");
	}

	@Test
	void errorsOutsideTheApiAreProblemJsonToo() {
		// GET /error directly was 500 with "status":999; a browser's 404 was the
		// Whitelabel HTML page.
		expectProblem(this.api.get().uri("/error").exchange(), 404);
		expectProblem(this.api.get().uri("/nope").header("Accept", "text/html").exchange(), 404);
		expectProblem(this.api.get().uri("/api/nope").header("Accept", "text/html").exchange(), 404);
	}

	@Test
	void anUnknownPathIsNoEndpointNotAStaticResourceLookupAndLogsNoWarning(CapturedOutput output) {
		// spring.web.resources.add-mappings=false: no resource handler behind the
		// controllers
		expectProblem(this.api.get().uri("/nope.css").exchange(), 404).jsonPath("$.detail")
			.value((detail) -> assertThat(detail.toString()).isEqualTo("No endpoint GET /nope.css.")
				.doesNotContain("static resource"));
		assertThat(output.getAll()).as("PageNotFound logs at ERROR only")
			.doesNotContain("No mapping for GET /nope.css");
	}

	@Test
	void actuatorIsOnlyOnTheManagementPort() {
		this.management.get()
			.uri("/actuator/prometheus")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.value((body) -> assertThat(body).contains("http_server_requests_seconds_bucket")
				.contains("application=\"study-service\"")
				.contains("jvm_memory_used_bytes")
				.contains("process_cpu_usage"));
		this.management.get().uri("/actuator/health/readiness").exchange().expectStatus().isOk();
		this.management.get().uri("/actuator/health/liveness").exchange().expectStatus().isOk();
		this.management.get().uri("/actuator/info").exchange().expectStatus().isOk();
		this.management.get().uri("/actuator/env").exchange().expectStatus().isNotFound();
		this.api.get().uri("/actuator/health").exchange().expectStatus().isNotFound();
	}

	private RestTestClient.ResponseSpec postJson(String body) {
		return this.api.post().uri("/api/studies").contentType(MediaType.APPLICATION_JSON).body(body).exchange();
	}

	private static RestTestClient.BodyContentSpec expectProblem(RestTestClient.ResponseSpec response, int status) {
		return response.expectStatus()
			.isEqualTo(status)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.status")
			.isEqualTo(status);
	}

}
