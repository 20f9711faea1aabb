package dev.gatewaylab.gateway;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;

/**
 * {@code /actuator/info} names the features the gateway runs beyond stock Spring Cloud
 * Gateway (the runner reads them for its report); the deny list only when a list is
 * configured (not here).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "STUDY_SERVICE_RESPONSE_TIMEOUT_MS=500", "LOG_PATH=target/logs" })
class FeaturesInfoTests extends RunningGateway {

	@Test
	void infoListsTheRunningFeatures() {
		clientOf(this.managementPort).get()
			.uri("/actuator/info")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.features")
			.isEqualTo(java.util.List.of("client address from X-Forwarded-For of trusted proxies only",
					"login limit per client address", "problem+json errors (503/502/504 for upstream failures)",
					"request guard (head, body and pipelining limits, stalled bodies, lingering close)"));
	}

}
