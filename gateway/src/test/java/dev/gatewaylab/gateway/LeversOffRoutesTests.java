package dev.gatewaylab.gateway;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.HttpMethod;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every route test again with every lever of the gateway-levers module off
 * ({@code GATEWAY_LEVERS_ENABLED=false}): Spring Cloud Gateway's own routing and write
 * filters, route lookup and dispatch, {@code Retry} filter and header filters, with the
 * lab's features on top — so the switch that puts them back keeps giving the same
 * answers.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = { "management.server.port=0",
		"STUDY_SERVICE_RESPONSE_TIMEOUT_MS=500", "LOG_PATH=target/logs", "GATEWAY_LEVERS_ENABLED=false" })
class LeversOffRoutesTests extends GatewayRoutesTests {

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
	 * first attempt (the lab keeps the request body cache off): the second attempt's
	 * upstream waits for a body that never comes, and the client gets the route's 504
	 * instead of the 503. This is why the retry lever does not retry a request whose body
	 * was not cached.
	 */
	@Test
	@Override
	void runsTheLeanHeaderFiltersInPlaceOfTheFrameworksOnes() {
		assertThat(this.headersFilters).extracting((filter) -> filter.getClass().getSimpleName())
			.contains("RemoveForwardedHeadersFilter", "RemoveXForwardedHeadersFilter", "RemoveHopByHopHeadersFilter")
			.doesNotContain("LeanRemoveForwarded", "LeanRemoveXForwarded", "LeanFilter");
	}

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
