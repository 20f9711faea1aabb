package dev.gatewaylab.studyservice;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged app over HTTP on random ports: that it serves study-core's API on its own
 * database, and its own configuration (body limit, no static resources, the actuator on
 * the management port only). The API's behaviour itself is tested in study-core.
 */
@ExtendWith(OutputCaptureExtension.class)
// Boot turns metrics export off in tests unless asked; /actuator/prometheus is under test
@AutoConfigureMetrics
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "STUDY_MAX_BODY_SIZE=10KB" })
class StudyServiceApplicationTests {

	private static final String STUDY_1 = "{\"id\":1,\"title\":\"Hands-on TLS #1\","
			+ "\"description\":\"A weekend study group on TLS, 6 sessions.\",\"category\":\"security\",\"capacity\":27,"
			+ "\"memberCount\":13,\"createdAt\":\"2024-03-01T09:00:00Z\"}";

	private final RestTestClient api;

	private final RestTestClient management;

	StudyServiceApplicationTests(@LocalServerPort int port, @LocalManagementPort int managementPort) {
		this.api = RestTestClient.bindToServer().baseUrl("http://localhost:" + port).build();
		this.management = RestTestClient.bindToServer().baseUrl("http://localhost:" + managementPort).build();
	}

	@Test
	void servesTheStudyApiOnItsOwnDatabaseWithTheRealSeed() {
		this.api.get()
			.uri("/api/studies/1")
			.exchange()
			.expectHeader()
			.contentType(MediaType.APPLICATION_JSON)
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.isEqualTo(STUDY_1);
		this.api.get().uri("/api/studies/10000").exchange().expectStatus().isOk();
		expectProblem(this.api.get().uri("/api/studies/10001").exchange(), 404);
		String location = this.api.post()
			.uri("/api/studies")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"title\":\"Gateway cost\",\"capacity\":8}")
			.exchange()
			.expectStatus()
			.isCreated()
			.returnResult()
			.getResponseHeaders()
			.getLocation()
			.toString();
		this.api.get().uri(location).exchange().expectBody().jsonPath("$.title").isEqualTo("Gateway cost");
	}

	@Test
	void theBodyLimitIsStudyMaxBodySize() {
		String big = "{\"title\":\"" + "x".repeat(20_000) + "\",\"capacity\":3}";
		expectProblem(this.api.post().uri("/api/studies").contentType(MediaType.APPLICATION_JSON).body(big).exchange(),
				413)
			.jsonPath("$.detail")
			.isEqualTo("The request body is larger than 10240 bytes.");
	}

	@Test
	void anUnknownPathIsNoEndpointNotAStaticResourceLookupAndLogsNoWarning(CapturedOutput output) {
		// spring.web.resources.add-mappings=false:
		// no resource handler behind the controllers
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
