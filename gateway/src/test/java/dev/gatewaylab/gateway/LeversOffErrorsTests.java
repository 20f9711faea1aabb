package dev.gatewaylab.gateway;

import org.springframework.boot.test.context.SpringBootTest;

/**
 * Every error-answer test again with the framework's own filters and route lookup, as
 * {@link FrameworkRoutingTests} does for the route tests (same properties, so the same
 * gateway).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "STUDY_SERVICE_RESPONSE_TIMEOUT_MS=500", "LOG_PATH=target/logs",
				"GATEWAY_FRAMEWORK_ROUTING=true", "GATEWAY_RETRY_FILTER=Retry", "GATEWAY_FRAMEWORK_ROUTE_LOOKUP=true" })
class FrameworkRoutingErrorsTests extends GatewayErrorsTests {

}
