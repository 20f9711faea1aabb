package dev.gatewaylab.gateway;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.web.reactive.server.WebTestClient;

import dev.gatewaylab.testsupport.CapturingAppender;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The access log switched off and on at run time through the loggers endpoint — what the
 * lab's logging experiment does to measure a JVM with and without its access log,
 * alternating every few seconds. The endpoint is exposed only when asked for
 * ({@code MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE}, as the experiment does), on the
 * management port.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = { "management.server.port=0",
		"LOG_PATH=target/logs", "management.endpoints.web.exposure.include=health,info,prometheus,loggers" })
class AccessLogSwitchTests extends RunningGateway {

	private static final String ACCESS_LOGGER = "/actuator/loggers/dev.gatewaylab.gateway.access";

	@Test
	void theAccessLogStopsAndResumesWithTheLoggersLevel() throws Exception {
		WebTestClient client = clientOf(this.port);
		WebTestClient management = clientOf(this.managementPort);
		CapturingAppender appender = CapturingAppender.attachTo("dev.gatewaylab.gateway.access");
		try {
			client.get().uri("/api/studies/1").header("X-Request-Id", "switch-on-1").exchange().expectStatus().isOk();
			appender.awaitMessageContaining("id=switch-on-1");

			management.post()
				.uri(ACCESS_LOGGER)
				.bodyValue(Map.of("configuredLevel", "OFF"))
				.exchange()
				.expectStatus()
				.isNoContent();
			client.get().uri("/api/studies/1").header("X-Request-Id", "switch-off-2").exchange().expectStatus().isOk();

			management.post()
				.uri(ACCESS_LOGGER)
				.bodyValue(Map.of("configuredLevel", "INFO"))
				.exchange()
				.expectStatus()
				.isNoContent();
			client.get().uri("/api/studies/1").header("X-Request-Id", "switch-on-3").exchange().expectStatus().isOk();
			// One logger thread appends in order: a line for the "off" request would be
			// here before this one.
			appender.awaitMessageContaining("id=switch-on-3");

			assertThat(appender.messages()).hasSize(2);
			assertThat(appender.messages().get(0)).contains("id=switch-on-1");
			assertThat(appender.messages().get(1)).contains("id=switch-on-3");
		}
		finally {
			appender.detach();
		}
	}

}
