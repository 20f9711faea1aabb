package dev.gatewaylab.gateway;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpMethod;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/** Made-up HTTP methods never become metric tags: every meter says OTHER (issue 10). All observations on. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "LOG_PATH=target/logs", "GATEWAY_CLIENT_OBSERVATION=true",
				"GATEWAY_SERVER_OBSERVATION=true" })
class MetricCardinalityTest {

	static final Upstream upstream = new Upstream();

	@DynamicPropertySource
	static void upstreams(DynamicPropertyRegistry registry) {
		registry.add("STUDY_SERVICE_URL", upstream::url);
		registry.add("MONOLITH_URL", Upstream::deadUrl);
	}

	@AfterAll
	static void stopUpstream() {
		upstream.close();
	}

	@LocalServerPort
	int port;

	@LocalManagementPort
	int managementPort;

	@Test
	void madeUpMethodsAreTaggedOtherOnEveryMeter() {
		WebTestClient client = WebTestClient.bindToServer()
			.baseUrl("http://127.0.0.1:" + this.port)
			.responseTimeout(Duration.ofSeconds(10))
			.build();
		for (int i = 1; i <= 5; i++) {
			client.method(HttpMethod.valueOf("PROBEM" + i)).uri("/api/studies/1").exchange().expectBody().isEmpty();
		}
		client.get().uri("/api/studies/1").exchange().expectStatus().isOk();
		String metrics = WebTestClient.bindToServer()
			.baseUrl("http://127.0.0.1:" + this.managementPort)
			.responseTimeout(Duration.ofSeconds(10))
			.build()
			.get().uri("/actuator/prometheus").exchange()
			.expectStatus().isOk()
			.expectBody(String.class).returnResult().getResponseBody();
		assertThat(metrics).doesNotContain("PROBEM")
			.containsPattern("spring_cloud_gateway_requests_seconds_count\\{.*httpMethod=\"OTHER\"")
			.containsPattern("spring_cloud_gateway_requests_seconds_count\\{.*httpMethod=\"GET\"")
			.containsPattern("http_client_requests_seconds_count\\{.*http_method=\"OTHER\"")
			.containsPattern("http_server_requests_seconds_count\\{.*method=\"(OTHER|UNKNOWN)\"");
	}

}
