package dev.gatewaylab.monolith;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The in-process study API is as anonymous and stateless as study-service's, and the
 * actuator lives only on the management port.
 */
@MonolithIntegrationTest
class StudyApiAndActuatorTests {

	private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

	@LocalServerPort
	int port;

	@LocalManagementPort
	int managementPort;

	@Test
	void anonymousGetOfASeededStudyIsJsonWithoutASession() throws Exception {
		HttpResponse<String> response = send(get(this.port, "/api/studies/1"));

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/json"));
		assertThat(response.body()).startsWith("{\"id\":1,\"title\":");
		assertThat(response.headers().firstValue("Set-Cookie")).as("stateless").isEmpty();
	}

	@Test
	void anonymousPostWithoutCsrfTokenCreatesAStudy() throws Exception {
		HttpResponse<String> response = send(HttpRequest.newBuilder(uri(this.port, "/api/studies"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"title\":\"Gateway tuning\",\"capacity\":8}"))
			.build());

		assertThat(response.statusCode()).isEqualTo(201);
		assertThat(response.headers().firstValue("Location"))
			.hasValueSatisfying((location) -> assertThat(location).contains("/api/studies/"));
		assertThat(response.headers().firstValue("Set-Cookie")).as("stateless").isEmpty();
	}

	@Test
	void malformedJsonIsABadRequestProblemNotAForbiddenOrLoginRedirect() throws Exception {
		HttpResponse<String> response = send(HttpRequest.newBuilder(uri(this.port, "/api/studies"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"title\":"))
			.build());

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
	}

	@Test
	void unknownStudyIsProblemJsonNotALoginRedirect() throws Exception {
		HttpResponse<String> response = send(get(this.port, "/api/studies/999999999"));

		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
	}

	@Test
	void prometheusOnTheManagementPortCarriesTheApplicationTagAndLatencyHistograms() throws Exception {
		send(get(this.port, "/api/studies/1"));

		HttpResponse<String> response = send(get(this.managementPort, "/actuator/prometheus"));

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("application=\"monolith\"")
			.contains("http_server_requests_seconds_bucket")
			.contains("jvm_memory_used_bytes")
			.contains("process_cpu_usage");
	}

	@Test
	void readinessAndLivenessAreUpOnTheManagementPort() throws Exception {
		HttpResponse<String> readiness = send(get(this.managementPort, "/actuator/health/readiness"));
		HttpResponse<String> liveness = send(get(this.managementPort, "/actuator/health/liveness"));

		assertThat(readiness.statusCode()).isEqualTo(200);
		assertThat(readiness.body()).contains("\"status\":\"UP\"");
		assertThat(liveness.statusCode()).isEqualTo(200);
		assertThat(send(get(this.managementPort, "/actuator/info")).statusCode()).isEqualTo(200);
	}

	@Test
	void onlyHealthInfoAndPrometheusAreExposed() throws Exception {
		assertThat(send(get(this.managementPort, "/actuator/env")).statusCode()).isEqualTo(404);
		assertThat(send(get(this.managementPort, "/actuator/beans")).statusCode()).isEqualTo(404);
	}

	@Test
	void actuatorIsNotServedOnTheApplicationPort() throws Exception {
		assertThat(send(get(this.port, "/actuator/prometheus")).statusCode()).isEqualTo(404);
		assertThat(send(get(this.port, "/actuator/health")).statusCode()).isEqualTo(404);
	}

	private HttpResponse<String> send(HttpRequest request) throws Exception {
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private static HttpRequest get(int port, String path) {
		return HttpRequest.newBuilder(uri(port, path)).GET().build();
	}

	private static URI uri(int port, String path) {
		return URI.create("http://localhost:" + port + path);
	}

}
