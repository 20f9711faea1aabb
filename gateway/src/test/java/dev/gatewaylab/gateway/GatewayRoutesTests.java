package dev.gatewaylab.gateway;

import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.handler.RoutePredicateHandlerMapping;
import org.springframework.core.Ordered;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.function.server.support.RouterFunctionMapping;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.server.WebFilter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What passes through a route: the gateway on a random port in front of a real upstream
 * (study-service route) — bodies, headers, request ids and retries. Its own answers are
 * {@link GatewayErrorsTests}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "STUDY_SERVICE_RESPONSE_TIMEOUT_MS=500", "LOG_PATH=target/logs" })
class GatewayRoutesTests extends RunningGateway {

	WebTestClient client;

	@Autowired
	RoutePredicateHandlerMapping handlerMapping;

	@Autowired
	List<HttpHeadersFilter> headersFilters;

	@Autowired
	List<HandlerMapping> handlerMappings;

	@Autowired
	ObjectProvider<WebFilter> webFilters;

	@BeforeEach
	void client() {
		this.client = clientOf(this.port);
	}

	@Test
	void returnsExactlyWhatTheUpstreamReturnsWithARequestId() {
		byte[] body = this.client.get()
			.uri("/api/studies/1")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.contentType(MediaType.APPLICATION_JSON)
			.expectHeader()
			.exists("X-Request-Id")
			.expectBody()
			.returnResult()
			.getResponseBodyContent();
		assertThat(new String(body)).isEqualTo(Upstream.STUDY_JSON);
	}

	@Test
	void sendsTheClientsRequestIdUpstream() {
		this.client.get()
			.uri("/api/studies/1")
			.header("X-Request-Id", "lab-42")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals("X-Request-Id", "lab-42");
		assertThat(upstream.requestIds).contains("lab-42");
	}

	@Test
	void aGetThatFailsOnceWith503IsRetriedAndTheClientSees200() {
		upstream.flakyGets.set(0);
		this.client.get().uri("/api/studies/2").exchange().expectStatus().isOk();
		assertThat(upstream.flakyGets).hasValue(2);
	}

	@Test
	void aGetThatFailsWith500IsNotRetried() {
		upstream.brokenGets.set(0);
		this.client.get().uri("/api/studies/3").exchange().expectStatus().isEqualTo(500);
		assertThat(upstream.brokenGets).hasValue(1);
	}

	@Test
	void aFailingPostIsNeverRetried() {
		upstream.failingPosts.set(0);
		this.client.post().uri("/api/studies/2").bodyValue("{}").exchange().expectStatus().isEqualTo(503);
		assertThat(upstream.failingPosts).hasValue(1);
	}

	@Test
	void retriesStopAtTheLimitAndTheClientSeesTheLastAnswer() {
		upstream.unavailableGets.set(0);
		this.client.get().uri("/api/studies/4").exchange().expectStatus().isEqualTo(503);
		assertThat(upstream.unavailableGets).as("one attempt + GATEWAY_RETRIES (2)").hasValue(3);
	}

	@Test
	void aGetWithABodyIsNotRetriedByTheGatewaysRetryFilter() {
		upstream.unavailableGets.set(0);
		this.client.method(org.springframework.http.HttpMethod.GET)
			.uri("/api/studies/4")
			.bodyValue("{\"q\":1}")
			.exchange()
			.expectStatus()
			.isEqualTo(503);
		// its body was read by the first attempt: a second one could not send it
		// (LeversOffRoutesTests shows why)
		assertThat(upstream.unavailableGets).hasValue(1);
	}

	@Test
	void aBodyLargerThanTheSingleWriteLimitArrivesWhole() {
		byte[] body = this.client.get()
			.uri("/api/studies/big")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.contentLength(Upstream.BIG_BODY.length())
			.expectBody()
			.returnResult()
			.getResponseBodyContent();
		assertThat(new String(body)).isEqualTo(Upstream.BIG_BODY);
	}

	@Test
	void aChunkedBodyIsStreamedWhole() {
		this.client.get()
			.uri("/api/studies/chunked")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.isEqualTo("[\"a\",\"b\",\"c\"]");
	}

	@Test
	void tellsTheUpstreamTheClientAddress() {
		// the test client is 127.0.0.1, a trusted proxy by default: its entries are kept,
		// itself appended
		this.client.get()
			.uri("/api/studies/1")
			.header("X-Forwarded-For", "203.0.113.9")
			.exchange()
			.expectStatus()
			.isOk();
		assertThat(upstream.forwardedFor).contains("203.0.113.9, 127.0.0.1");
	}

	@Test
	void dropsTheClientsForwardedHeadersAndSetsItsOwn() {
		this.client.get()
			.uri("/api/studies/1")
			.header("Forwarded", "for=203.0.113.9;host=evil.example")
			.header("x-FORWARDED-host", "evil.example")
			.header("X-Forwarded-Proto", "ftp")
			.header("X-Kept", "1")
			.exchange()
			.expectStatus()
			.isOk();
		io.netty.handler.codec.http.HttpHeaders seen = upstream.lastHeaders;
		assertThat(seen.contains("Forwarded")).isFalse();
		assertThat(seen.contains("X-Forwarded-Host")).isFalse();
		assertThat(seen.getAll("X-Forwarded-Proto")).containsExactly("http");
		assertThat(seen.getAll("X-Forwarded-For")).containsExactly("127.0.0.1");
		assertThat(seen.get("X-Kept")).isEqualTo("1");
	}

	@Test
	void runsTheLeanHeaderFiltersInPlaceOfTheFrameworksOnes() {
		assertThat(this.headersFilters).extracting((filter) -> filter.getClass().getSimpleName())
			.contains("LeanRemoveForwarded", "LeanRemoveXForwarded", "LeanFilter")
			.doesNotContain("RemoveForwardedHeadersFilter", "RemoveXForwardedHeadersFilter",
					"RemoveHopByHopHeadersFilter");
	}

	@Test
	void forwardsAPlainRequestWithTheGatewaysForwardedHeadersOnly() {
		this.client.get().uri("/api/studies/1").header("X-Kept", "1").exchange().expectStatus().isOk();
		io.netty.handler.codec.http.HttpHeaders seen = upstream.lastHeaders;
		assertThat(seen.contains("Forwarded")).isFalse();
		assertThat(seen.getAll("X-Forwarded-For")).containsExactly("127.0.0.1");
		assertThat(seen.getAll("X-Forwarded-Proto")).containsExactly("http");
		assertThat(seen.get("X-Kept")).isEqualTo("1");
	}

	/**
	 * The handler mapping these tests run through: the gateway's own route lookup unless
	 * the knob asks otherwise.
	 */
	String expectedHandlerMapping() {
		return "RouteLookupHandlerMapping";
	}

	@Test
	void looksRoutesUpWithTheConfiguredHandlerMapping() {
		assertThat(this.handlerMapping.getClass().getSimpleName()).isEqualTo(expectedHandlerMapping());
	}

	/**
	 * Whether a request whose route is known at once skips WebFlux's dispatcher
	 * (RouteDispatchWebFilter): with the gateway's own route lookup.
	 */
	boolean expectsRouteDispatch() {
		return true;
	}

	@Test
	void handsKnownRoutesToTheirFilterChainOnlyAfterEveryOtherWebFilter() {
		List<String> names = this.webFilters.orderedStream()
			.map((filter) -> filter.getClass().getSimpleName())
			.toList();
		if (expectsRouteDispatch()) {
			assertThat(names).last().isEqualTo("RouteDispatchWebFilter");
			assertThat(names).containsOnlyOnce("RouteDispatchWebFilter");
		}
		else {
			assertThat(names).doesNotContain("RouteDispatchWebFilter");
		}
	}

	@Test
	void looksRoutesUpBeforeWebFluxsControllerAndRouterFunctionMappings() {
		assertThat(this.handlerMappings)
			.filteredOn((mapping) -> mapping instanceof RequestMappingHandlerMapping
					|| mapping instanceof RouterFunctionMapping)
			.hasSize(2)
			.allSatisfy(
					(mapping) -> assertThat(this.handlerMapping.getOrder()).isLessThan(((Ordered) mapping).getOrder()));
	}

	@Test
	void forwardsTheClientsHeadersWithTheUpstreamsHostAndWithoutHopByHopHeaders() {
		this.client.get()
			.uri("/api/studies/1")
			.header("Host", "client.example")
			.header("User-Agent", "lab-test/1")
			.header("X-Multi", "a", "b")
			.header("Proxy-Authorization", "Basic eDp5")
			.header("TE", "trailers")
			.exchange()
			.expectStatus()
			.isOk();
		io.netty.handler.codec.http.HttpHeaders seen = upstream.lastHeaders;
		assertThat(seen.get("Host")).isEqualTo(upstream.url().substring("http://".length()));
		assertThat(seen.get("User-Agent")).isEqualTo("lab-test/1");
		assertThat(seen.getAll("X-Multi")).containsExactly("a", "b");
		assertThat(seen.contains("Proxy-Authorization")).isFalse();
		assertThat(seen.contains("TE")).isFalse();
		assertThat(seen.getAll("X-Request-Id")).hasSize(1);
	}

	@Test
	void returnsTheUpstreamsResponseHeadersWithoutHopByHopHeaders() {
		this.client.get()
			.uri("/api/studies/headers")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals("X-Multi", "a", "b")
			.expectHeader()
			.valueEquals("Set-Cookie", "one=1", "two=2")
			.expectHeader()
			.doesNotExist("Proxy-Authenticate")
			.expectHeader()
			.doesNotExist("X-Hop-Hint")
			.expectHeader()
			.contentType(MediaType.APPLICATION_JSON);
	}

	@Test
	void sendsAGeneratedRequestIdUpstreamAndBack() {
		String returned = this.client.get()
			.uri("/api/studies/1")
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseHeaders()
			.getFirst("X-Request-Id");
		assertThat(returned).matches("[0-9a-f-]{36}");
		assertThat(upstream.requestIds).contains(returned);
	}

}
