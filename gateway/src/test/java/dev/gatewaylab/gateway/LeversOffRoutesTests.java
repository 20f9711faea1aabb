package dev.gatewaylab.gateway;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.HttpMethod;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every route test again with the framework's own filters and route lookup —
 * {@code NettyRoutingFilter}, {@code NettyWriteResponseFilter}, {@code Retry} and
 * {@code RoutePredicateHandlerMapping} ({@code GATEWAY_FRAMEWORK_ROUTING=true},
 * {@code GATEWAY_RETRY_FILTER=Retry}, {@code GATEWAY_FRAMEWORK_ROUTE_LOOKUP=true}) — so
 * the knobs that put them back keep giving the same answers.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "STUDY_SERVICE_RESPONSE_TIMEOUT_MS=500", "LOG_PATH=target/logs",
				"GATEWAY_FRAMEWORK_ROUTING=true", "GATEWAY_RETRY_FILTER=Retry", "GATEWAY_FRAMEWORK_ROUTE_LOOKUP=true" })
class FrameworkRoutingTests extends GatewayRoutesTests {

	@Override
	String expectedHandlerMapping() {
		return "RoutePredicateHandlerMapping";
	}

	@Override
	boolean expectsRouteDispatch() {
		return false;
	}

	/**
	 * The framework's Retry sends the request again although its body was consumed by the
	 * first attempt: the second attempt's upstream waits for a body that never comes, and
	 * the client gets the route's 504 instead of the 503. This is why UpstreamRetry does
	 * not retry a request with a body.
	 */
	@Test
	@Override
	void aGetWithABodyIsNotRetriedByTheGatewaysRetryFilter() {
		upstream.unavailableGets.set(0);
		this.client.method(HttpMethod.GET)
			.uri("/api/studies/4")
			.bodyValue("{\"q\":1}")
			.exchange()
			.expectStatus()
			.isEqualTo(504);
		assertThat(upstream.unavailableGets.get()).isGreaterThanOrEqualTo(2);
	}

}
