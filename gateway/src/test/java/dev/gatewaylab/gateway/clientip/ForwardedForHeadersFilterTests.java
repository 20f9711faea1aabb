package dev.gatewaylab.gateway.clientip;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;

import org.springframework.cloud.gateway.filter.headers.RemoveXForwardedHeadersFilter;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import dev.gatewaylab.denylist.Ipv4;

import static org.assertj.core.api.Assertions.assertThat;

/** What the upstream learns about the client (X-Forwarded-For, X-Forwarded-Proto). */
class ForwardedForHeadersFilterTests {

	private final ForwardedForHeadersFilter filter = new ForwardedForHeadersFilter(ClientIpResolver.of("10.0.0.0/8"));

	@Test
	void aDirectClientIsTheOnlyEntryAndItsForgedHeaderIsDropped() {
		HttpHeaders sent = sentUpstream(request("198.51.100.7").header("X-Forwarded-For", "1.2.3.4"));
		assertThat(sent.get("X-Forwarded-For")).containsExactly("198.51.100.7");
		assertThat(sent.getFirst("X-Forwarded-Proto")).isEqualTo("http");
	}

	@Test
	void behindATrustedProxyTheReceivedEntriesAreKeptAndThePeerAppended() {
		HttpHeaders sent = sentUpstream(request("10.1.2.3").header("X-Forwarded-For", "203.0.113.9, 10.9.9.9")
			.header("X-Forwarded-For", "10.8.8.8"));
		assertThat(sent.get("X-Forwarded-For")).containsExactly("203.0.113.9, 10.9.9.9, 10.8.8.8, 10.1.2.3");
		// the upstream, trusting 10/8, resolves the same client the deny list does
		assertThat(Ipv4.format(
				ClientIpResolver.of("10.0.0.0/8").resolve(Ipv4.parse("10.1.2.3"), sent.get("X-Forwarded-For")).ipv4()))
			.isEqualTo("203.0.113.9");
	}

	@Test
	void aTrustedProxyWithoutAHeaderIsItselfTheEntry() {
		assertThat(sentUpstream(request("10.1.2.3")).get("X-Forwarded-For")).containsExactly("10.1.2.3");
	}

	private static MockServerHttpRequest.BaseBuilder<?> request(String peer) {
		return MockServerHttpRequest.get("/api/studies/1").remoteAddress(new InetSocketAddress(peer, 40000));
	}

	/** As the routing filter does it: the remove filter's copy, then ours. */
	private HttpHeaders sentUpstream(MockServerHttpRequest.BaseBuilder<?> request) {
		MockServerWebExchange exchange = MockServerWebExchange.from(request);
		HttpHeaders filtered = new RemoveXForwardedHeadersFilter().filter(exchange.getRequest().getHeaders(), exchange);
		return this.filter.filter(filtered, exchange);
	}

}
