package dev.gatewaylab.gateway;

import org.springframework.boot.test.context.SpringBootTest;

/**
 * Every error-answer test again with every lever off, as {@link LeversOffRoutesTests}
 * does for the route tests (same properties, so the same gateway).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = { "management.server.port=0",
		"STUDY_SERVICE_RESPONSE_TIMEOUT_MS=500", "LOG_PATH=target/logs", "GATEWAY_LEVERS_ENABLED=false" })
class LeversOffErrorsTests extends GatewayErrorsTests {

}
