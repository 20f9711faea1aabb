package dev.gatewaylab.gateway;

import java.time.Duration;

import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * What every test of the running gateway shares: a real upstream behind the study-service
 * route, a dead one behind the monolith route, and the gateway's random public and
 * management ports. Subclasses carry their own {@code @SpringBootTest} properties. The
 * upstream serves every such test class of the JVM (Spring's context cache keeps their
 * gateways pointing at it), so it lives as long as the JVM.
 */
abstract class RunningGateway {

	static final Upstream upstream = new Upstream();

	@DynamicPropertySource
	static void upstreams(DynamicPropertyRegistry registry) {
		registry.add("STUDY_SERVICE_URL", upstream::url);
		registry.add("MONOLITH_URL", Upstream::deadUrl);
	}

	@LocalServerPort
	int port;

	@LocalManagementPort
	int managementPort;

	/**
	 * A client of one of the gateway's ports, with slack for a loaded 2-core CI machine.
	 */
	static WebTestClient clientOf(int port) {
		return WebTestClient.bindToServer()
			.baseUrl("http://127.0.0.1:" + port)
			.responseTimeout(Duration.ofSeconds(10))
			.build();
	}

	/** The management port's {@code /actuator/prometheus} page, answered 200. */
	String scrapeMetrics() {
		return clientOf(this.managementPort).get()
			.uri("/actuator/prometheus")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
	}

}
