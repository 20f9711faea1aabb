package dev.gatewaylab.levers;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

import dev.gatewaylab.testsupport.RawResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every route and error behaviour, asserted as it must be, with every lever on, with each
 * lever off alone, and with every lever off (the framework's own components throughout):
 * what reaches the upstream, what reaches the client, the statuses of failures, timeouts
 * and retries. {@link LeverEquivalenceTests} compares each lever with the framework on
 * the same requests; these say what the answer is.
 */
@ParameterizedClass
@EnumSource(ProxyContractTests.Setup.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProxyContractTests {

	/** Which levers are off. */
	enum Setup {

		ALL_ON, ROUTING_OFF, ROUTE_LOOKUP_OFF, DISPATCH_OFF, RETRY_OFF, REQUEST_URL_OFF, HOP_BY_HOP_HEADERS_OFF,
		FORWARDED_HEADERS_OFF, ALL_OFF;

		Set<Lever> off() {
			if (this == ALL_ON) {
				return EnumSet.noneOf(Lever.class);
			}
			if (this == ALL_OFF) {
				return EnumSet.allOf(Lever.class);
			}
			return EnumSet.of(Lever.valueOf(name().substring(0, name().length() - "_OFF".length())));
		}

	}

	@Parameter
	Setup setup;

	TestUpstream upstream;

	TestGateway gateway;

	@BeforeParameterizedClassInvocation
	void start() {
		this.upstream = new TestUpstream();
		this.gateway = new TestGateway(this.upstream, this.setup.off(), Map.of());
	}

	@AfterParameterizedClassInvocation
	void stop() {
		this.gateway.close();
		this.upstream.close();
	}

	private Outcome send(Case request) {
		return Outcome.of(request, this.gateway, this.upstream);
	}

	private RawResponse raw(Case request) {
		this.upstream.reset();
		return request.send(this.gateway.port());
	}

	@Test
	void aRequestReachesTheUpstreamWithItsMethodTargetHeadersAndBody() {
		Outcome post = send(Case.withBody("post", "POST", "/echo/post?q=%20x", "{\"a\":1}", "X-Custom: 1"));
		assertThat(post.status()).isEqualTo(200);
		assertThat(post.upstream()).singleElement()
			.satisfies((request) -> assertThat(request).startsWith("POST /echo/post?q=%20x\n")
				.contains("x-custom: 1", "content-length: 7", "content-type: text/plain")
				.endsWith("\n\n{\"a\":1}"));
		assertThat(post.body()).isEqualTo(post.upstream().get(0));
		Outcome chunked = send(Case.chunked("chunked", "POST", "/echo/chunked", "first,", "second"));
		assertThat(chunked.upstream()).singleElement()
			.satisfies((request) -> assertThat(request).endsWith("\n\nfirst,second"));
	}

	@Test
	void bodiesOfEverySizeAndKindArriveWhole() {
		String hundredKiB = TestUpstream.big().substring(0, 100 * 1024);
		assertThat(send(Case.withBody("put-big", "PUT", "/echo/big", hundredKiB)).body()).endsWith(hundredKiB);
		Outcome big = send(Case.get("big", "/big"));
		assertThat(big.body()).isEqualTo(TestUpstream.big());
		assertThat(big.headers()).containsEntry("content-length", java.util.List.of("204800"));
		Outcome chunked = send(Case.get("chunked", "/chunked"));
		assertThat(chunked.body()).isEqualTo("one,two,three");
		assertThat(chunked.headers()).containsEntry("transfer-encoding", java.util.List.of("chunked"));
		assertThat(send(Case.get("sse", "/sse")).body())
			.isEqualTo("data: event 1\n\ndata: event 2\n\ndata: event 3\n\n");
		Outcome head = send(new Case("head", "HEAD /echo/head HTTP/1.1\r\n", ""));
		assertThat(head.status()).isEqualTo(200);
		assertThat(head.body()).isEmpty();
	}

	@Test
	void hopByHopAndClientForwardedHeadersGoNeitherWay() {
		Outcome echo = send(Case.get("hop-request", "/echo/h", "Connection: X-Hop", "X-Hop: dropped", "TE: trailers",
				"Keep-Alive: timeout=5", "Proxy-Authorization: Basic x", "Forwarded: for=1.2.3.4",
				"X-Forwarded-Host: evil.example", "X-Forwarded-For: 9.9.9.9", "X-Kept: yes"));
		assertThat(echo.upstream()).singleElement()
			.satisfies((request) -> assertThat(request).contains("x-kept: yes")
				.doesNotContain("x-hop", "te:", "keep-alive", "proxy-authorization", "forwarded", "evil.example",
						"9.9.9.9"));
		Outcome hop = send(Case.get("hop-response", "/hop"));
		assertThat(hop.headers()).containsEntry("set-cookie", java.util.List.of("a=1", "b=2"))
			.containsEntry("x-custom", java.util.List.of("kept"))
			.doesNotContainKeys("x-hop-hint", "keep-alive", "proxy-authenticate");
		assertThat(hop.body()).isEqualTo("hop");
	}

	@Test
	void theUpstreamsStatusIsTheClients() {
		for (int status : new int[] { 404, 500, 599, 204, 304 }) {
			RawResponse response = raw(Case.get("status-" + status, "/status/" + status));
			assertThat(response.status()).isEqualTo(status);
			assertThat(response.body()).isEqualTo((status == 204 || status == 304) ? "" : "status " + status);
		}
	}

	@Test
	void routesAreChosenInOrderAndByPredicatesThatAnswerLater() {
		assertThat(raw(Case.get("nowhere", "/nowhere")).status()).isEqualTo(404);
		assertThat(this.upstream.received()).isEmpty();
		assertThat(send(Case.get("shadowed", "/echo/shadowed")).attributes()).containsEntry(
				"org.springframework.cloud.gateway.support.ServerWebExchangeUtils.gatewayRoute", "route plain");
		Outcome later = send(Case.get("later", "/later/echo/l"));
		assertThat(later.status()).isEqualTo(200);
		assertThat(later.attributes()).containsEntry(
				"org.springframework.cloud.gateway.support.ServerWebExchangeUtils.gatewayRoute", "route later");
		Outcome host = send(new Case("host", "GET /host/echo/h HTTP/1.1\r\n", "", "client.example"));
		assertThat(host.upstream()).singleElement()
			.satisfies((request) -> assertThat(request).contains("host: client.example"));
	}

	@Test
	void theResponseTimeoutEndsTheWaitForHeadersNotASlowBody() {
		long start = System.nanoTime();
		assertThat(raw(Case.get("timeout", "/timeout/slow/1000")).status()).isEqualTo(504);
		assertThat((System.nanoTime() - start) / 1_000_000).as("ms until the 504").isLessThan(900);
		RawResponse trickle = raw(Case.get("trickle", "/slow-body/trickle"));
		assertThat(trickle.status()).isEqualTo(200);
		assertThat(trickle.complete()).isTrue();
		assertThat(trickle.body()).isEqualTo("part 1\npart 2\npart 3\npart 4\npart 5\n");
	}

	@Test
	void idempotentRequestsAreRetriedAsConfiguredAndOthersAreNot() {
		Outcome flaky = send(Case.get("retry-flaky", "/retry/flaky/one"));
		assertThat(flaky.status()).isEqualTo(200);
		assertThat(this.upstream.hits("/flaky/one")).isEqualTo(2);
		assertThat(flaky.attributes()).containsEntry("retry_iteration", "1");
		assertThat(raw(Case.get("retry-exhausted", "/retry/status/503")).status()).isEqualTo(503);
		assertThat(this.upstream.hits("/status/503")).isEqualTo(3);
		assertThat(raw(Case.withBody("retry-post", "POST", "/retry/flaky/two", "posted")).status()).isEqualTo(503);
		assertThat(this.upstream.hits("/flaky/two")).isEqualTo(1);
		Outcome withBody = send(Case.withBody("retry-get-body", "GET", "/retry/flaky/three", "sent twice"));
		assertThat(withBody.status()).isEqualTo(200);
		assertThat(withBody.upstream()).hasSize(2).allSatisfy((request) -> assertThat(request).endsWith("sent twice"));
	}

	@Test
	void anUpstreamThatDropsOrRefusesTheConnectionIsAnError() {
		assertThat(raw(Case.get("retry-close", "/retry/close")).status()).isEqualTo(500);
		assertThat(this.upstream.hits("/close")).isEqualTo(3);
		RawResponse dead = raw(Case.get("dead", "/dead/x"));
		assertThat(dead.status()).isEqualTo(500);
		assertThat(dead.body()).contains("\"status\":500");
	}

	@Test
	void eachLeverIsInPlaceExactlyWhenItIsOn() {
		var context = this.gateway.context();
		for (Lever lever : Lever.values()) {
			assertThat(lever.isEnabled(context.getEnvironment())).as(lever.id())
				.isEqualTo(!this.setup.off().contains(lever));
		}
		Set<Lever> off = this.setup.off();
		assertThat(context.getBeanNamesForType(dev.gatewaylab.levers.routing.UpstreamRoutingFilter.class))
			.hasSize(off.contains(Lever.ROUTING) ? 0 : 1);
		assertThat(context.getBeanNamesForType(org.springframework.cloud.gateway.filter.NettyRoutingFilter.class))
			.hasSize(off.contains(Lever.ROUTING) ? 1 : 0);
		assertThat(context.getBean(org.springframework.cloud.gateway.handler.RoutePredicateHandlerMapping.class))
			.matches((mapping) -> (mapping instanceof dev.gatewaylab.levers.lookup.RouteLookupHandlerMapping) != off
				.contains(Lever.ROUTE_LOOKUP));
		assertThat(context.getBeanNamesForType(dev.gatewaylab.levers.lookup.RouteDispatchWebFilter.class))
			.hasSize((off.contains(Lever.DISPATCH) || off.contains(Lever.ROUTE_LOOKUP)) ? 0 : 1);
		assertThat(context.getBeanNamesForType(dev.gatewaylab.levers.retry.LeanRetryGatewayFilterFactory.class))
			.hasSize(off.contains(Lever.RETRY) ? 0 : 1);
		assertThat(context
			.getBeanNamesForType(org.springframework.cloud.gateway.filter.factory.RetryGatewayFilterFactory.class))
			.hasSize(off.contains(Lever.RETRY) ? 1 : 0);
		assertThat(context.getBeanNamesForType(dev.gatewaylab.levers.url.LeanRouteToRequestUrlFilter.class))
			.hasSize(off.contains(Lever.REQUEST_URL) ? 0 : 1);
		assertThat(context.getBeanNamesForType(org.springframework.cloud.gateway.filter.RouteToRequestUrlFilter.class))
			.hasSize(off.contains(Lever.REQUEST_URL) ? 1 : 0);
		assertThat(context.getBean(org.springframework.cloud.gateway.filter.headers.RemoveHopByHopHeadersFilter.class))
			.matches((filter) -> (filter instanceof dev.gatewaylab.levers.headers.HopByHopHeaders.LeanFilter) != off
				.contains(Lever.HOP_BY_HOP_HEADERS));
		assertThat(context.getBean(org.springframework.cloud.gateway.filter.headers.RemoveForwardedHeadersFilter.class))
			.matches((
					filter) -> (filter instanceof dev.gatewaylab.levers.headers.ForwardedHeaders.LeanRemoveForwarded) != off
						.contains(Lever.FORWARDED_HEADERS));
	}

}
