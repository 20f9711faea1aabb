package dev.gatewaylab.gateway.login;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.RequestPath;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import dev.gatewaylab.denylist.Ipv4;
import dev.gatewaylab.gateway.clientip.ClientAddress;
import dev.gatewaylab.gateway.clientip.ClientIpResolver;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * POST /login per client address: 429 + Retry-After over budget, other addresses
 * unaffected (RELIABILITY item 10).
 */
class LoginRateLimitGlobalFilterTests {

	private final AtomicInteger forwarded = new AtomicInteger();

	private final GatewayFilterChain upstream = (exchange) -> {
		this.forwarded.incrementAndGet();
		return Mono.empty();
	};

	private final LoginRateLimitGlobalFilter filter = new LoginRateLimitGlobalFilter(ClientIpResolver.of("10.0.0.0/8"),
			3, "1m", 1000);

	@Test
	void aBurstOverTheBudgetGets429ProblemWithRetryAfterAndAnotherAddressIsUnaffected() {
		for (int i = 0; i < 3; i++) {
			assertThat(login("198.51.100.1", null).getResponse().getStatusCode()).isNull();
		}
		MockServerWebExchange refused = login("198.51.100.1", null);
		assertThat(refused.getResponse().getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		assertThat(refused.getResponse().getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
		assertThat(Long.parseLong(refused.getResponse().getHeaders().getFirst("Retry-After"))).isBetween(1L, 60L);
		assertThat(this.forwarded).hasValue(3);

		assertThat(login("198.51.100.2", null).getResponse().getStatusCode()).as("another address").isNull();
		assertThat(this.forwarded).hasValue(4);
	}

	@Test
	void behindATrustedProxyTheForwardedClientCountsAndAForgedHeaderFromAnUntrustedPeerDoesNot() {
		for (int i = 0; i < 3; i++) {
			login("10.0.0.1", "203.0.113.7");
		}
		assertThat(login("10.0.0.1", "203.0.113.7").getResponse().getStatusCode())
			.isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		assertThat(login("10.0.0.1", "203.0.113.8").getResponse().getStatusCode()).as("another client, same proxy")
			.isNull();
		// an untrusted peer choosing a fresh X-Forwarded-For each time is still one
		// client
		for (int i = 0; i < 3; i++) {
			login("198.51.100.9", "192.0.2." + i);
		}
		assertThat(login("198.51.100.9", "192.0.2.99").getResponse().getStatusCode())
			.isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
	}

	@Test
	void anIpv6ClientBehindTheProxyHasItsOwnBucketAndCannotLockOutTheOthers() {
		// every non-IPv4 forwarded address shared the proxy's bucket: one client locked
		// out everyone behind the proxy
		for (int i = 0; i < 3; i++) {
			login("10.0.0.1", "2001:db8::1");
		}
		MockServerWebExchange refused = login("10.0.0.1", "2001:db8::2");
		assertThat(refused.getResponse().getStatusCode()).as("the same /64").isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		assertThat(refused.getResponse().getBodyAsString().block()).contains("2001:db8:0:0::/64");
		assertThat(login("10.0.0.1", "2001:db8:0:1::1").getResponse().getStatusCode()).as("another /64").isNull();
		assertThat(login("10.0.0.1", null).getResponse().getStatusCode()).as("the proxy itself").isNull();
		assertThat(login("10.0.0.1", "unknown").getResponse().getStatusCode()).as("an unreadable address").isNull();
		for (int i = 0; i < 3; i++) {
			login("10.0.0.1", "garbage-" + i);
		}
		assertThat(login("10.0.0.1", "unknown").getResponse().getStatusCode())
			.as("unreadable addresses share one bucket")
			.isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		assertThat(login("10.0.0.1", null).getResponse().getStatusCode()).as("… which is not the proxy's").isNull();
	}

	@Test
	void behindAProxyThatAppendsPortsEveryClientHasItsOwnBucket() {
		// "ip:port" could not be read: every client behind such a proxy shared one
		// bucket,
		// and one of them locked out all the others
		for (int i = 0; i < 3; i++) {
			login("10.0.0.1", "203.0.113.7:" + (50000 + i));
		}
		MockServerWebExchange refused = login("10.0.0.1", "203.0.113.7:50099");
		assertThat(refused.getResponse().getStatusCode()).as("the same client, another port")
			.isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		assertThat(refused.getResponse().getBodyAsString().block()).contains("203.0.113.7");
		assertThat(login("10.0.0.1", "::ffff:203.0.113.7").getResponse().getStatusCode()).as("written as IPv6")
			.isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		for (String other : new String[] { "203.0.113.8:50000", "[::ffff:203.0.113.9]:443", "[2001:db8::1]:443",
				"unknown" }) {
			assertThat(login("10.0.0.1", other).getResponse().getStatusCode()).as(other).isNull();
		}
		assertThat(login("10.0.0.1", null).getResponse().getStatusCode()).as("the proxy itself").isNull();
	}

	@Test
	void theBucketIsTheClientAlreadyResolvedOnTheExchange() {
		// the deny list resolves the client first and keeps it on the exchange: the
		// limit counts that result and never reads the header again
		ClientAddress resolved = ClientAddress.ipv4(Ipv4.parse("198.51.100.50"));
		for (int i = 0; i < 4; i++) {
			MockServerWebExchange exchange = loginExchange("10.0.0.1", "198.51.100." + (60 + i));
			exchange.getAttributes().put(ClientIpResolver.CLIENT_ATTRIBUTE, resolved);
			this.filter.filter(exchange, this.upstream).block();
			assertThat(exchange.getResponse().getStatusCode()).as("attempt " + (i + 1))
				.isEqualTo((i < 3) ? null : HttpStatus.TOO_MANY_REQUESTS);
		}
	}

	@Test
	void otherRequestsAndSpellingsArePassedOrCountedAsTheUpstreamSeesThem() {
		assertThat(LoginRateLimitGlobalFilter.isLogin(RequestPath.parse("/login", null).pathWithinApplication()))
			.isTrue();
		assertThat(LoginRateLimitGlobalFilter
			.isLogin(RequestPath.parse("/login;jsessionid=x", null).pathWithinApplication())).isTrue();
		assertThat(LoginRateLimitGlobalFilter.isLogin(RequestPath.parse("/%6cogin", null).pathWithinApplication()))
			.isTrue();
		assertThat(LoginRateLimitGlobalFilter.isLogin(RequestPath.parse("/login/", null).pathWithinApplication()))
			.isTrue();
		assertThat(LoginRateLimitGlobalFilter.isLogin(RequestPath.parse("/logins", null).pathWithinApplication()))
			.isFalse();
		assertThat(LoginRateLimitGlobalFilter.isLogin(RequestPath.parse("/api/login", null).pathWithinApplication()))
			.isFalse();
		for (int i = 0; i < 10; i++) {
			MockServerWebExchange get = MockServerWebExchange
				.from(MockServerHttpRequest.get("/login").remoteAddress(new InetSocketAddress("198.51.100.3", 40000)));
			this.filter.filter(get, this.upstream).block();
			assertThat(get.getResponse().getStatusCode()).isNull();
		}
	}

	private MockServerWebExchange login(String peer, String forwardedFor) {
		MockServerWebExchange exchange = loginExchange(peer, forwardedFor);
		this.filter.filter(exchange, this.upstream).block();
		return exchange;
	}

	private static MockServerWebExchange loginExchange(String peer, String forwardedFor) {
		MockServerHttpRequest.BodyBuilder request = MockServerHttpRequest.post("/login")
			.remoteAddress(new InetSocketAddress(peer, 40000));
		if (forwardedFor != null) {
			request.header("X-Forwarded-For", forwardedFor);
		}
		return MockServerWebExchange.from(request);
	}

}
