package dev.gatewaylab.gateway;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.HttpMethod;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Made-up HTTP methods never become metric tags: every meter says OTHER (hardening). All
 * observations on.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = { "management.server.port=0",
		"LOG_PATH=target/logs", "GATEWAY_CLIENT_OBSERVATION=true", "GATEWAY_SERVER_OBSERVATION=true" })
class MetricCardinalityTests extends RunningGateway {

	@Test
	void madeUpMethodsAreTaggedOtherOnEveryMeter() {
		WebTestClient client = clientOf(this.port);
		for (int i = 1; i <= 5; i++) {
			client.method(HttpMethod.valueOf("PROBEM" + i)).uri("/api/studies/1").exchange().expectBody().isEmpty();
		}
		client.get().uri("/api/studies/1").exchange().expectStatus().isOk();
		assertThat(scrapeMetrics()).doesNotContain("PROBEM")
			.containsPattern("spring_cloud_gateway_requests_seconds_count\\{.*httpMethod=\"OTHER\"")
			.containsPattern("spring_cloud_gateway_requests_seconds_count\\{.*httpMethod=\"GET\"")
			.containsPattern("http_client_requests_seconds_count\\{.*http_method=\"OTHER\"")
			.containsPattern("http_server_requests_seconds_count\\{.*method=\"(OTHER|UNKNOWN)\"");
	}

}
