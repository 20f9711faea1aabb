package dev.gatewaylab.gateway.denylist;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.WebFilterChain;

import dev.gatewaylab.denylist.OnError;
import dev.gatewaylab.gateway.clientip.ClientIpResolver;

import static org.assertj.core.api.Assertions.assertThat;

class DenyListWebFilterTests {

	@TempDir
	Path dir;

	final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	final AtomicInteger passed = new AtomicInteger();

	final WebFilterChain upstream = (exchange) -> {
		this.passed.incrementAndGet();
		exchange.getResponse().setStatusCode(HttpStatus.OK);
		return Mono.empty();
	};

	ReloadingDenyList denyList;

	DenyListWebFilter filter;

	@BeforeEach
	void filter() throws IOException {
		Path file = Files.writeString(this.dir.resolve("deny-list.txt"), "10.0.0.0/8\n203.0.113.66\n");
		this.denyList = new ReloadingDenyList(file, OnError.FAIL, null, Duration.ZERO, this.registry);
		this.filter = new DenyListWebFilter(this.denyList, ClientIpResolver.of("127.0.0.0/8"),
				(exchange, chain) -> chain.filter(exchange));
	}

	@AfterEach
	void close() {
		this.denyList.close();
	}

	MockServerWebExchange run(String peer, String forwardedFor) {
		MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.get("/anything")
			.remoteAddress(new InetSocketAddress(peer, 40000));
		if (forwardedFor != null) {
			request.header("X-Forwarded-For", forwardedFor);
		}
		MockServerWebExchange exchange = MockServerWebExchange.from(request);
		this.filter.filter(exchange, this.upstream).block();
		return exchange;
	}

	void assertDenied(MockServerWebExchange exchange) {
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.FORBIDDEN);
		assertThat(exchange.getResponse().getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_JSON);
		assertThat(exchange.getResponse().getBodyAsString().block()).isEqualTo("{\"resultMessage\":\"Deny\"}");
	}

	@Test
	void deniesAClientBehindATrustedProxy() {
		assertDenied(run("127.0.0.1", "10.9.8.7"));
		assertThat(this.passed).hasValue(0);
		assertThat(this.registry.get("gateway.deny.list.denied").counter().count()).isEqualTo(1);
	}

	@Test
	void deniesADirectlyConnectedClient() {
		assertDenied(run("203.0.113.66", null));
		assertThat(this.passed).hasValue(0);
	}

	@Test
	void aForgedHeaderFromAnUntrustedPeerChangesNothing() {
		// A denied peer cannot talk its way in ...
		assertDenied(run("203.0.113.66", "198.51.100.1"));
		// ... and an allowed peer is not denied because of what it claims.
		assertThat(run("203.0.113.67", "10.9.8.7").getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(this.passed).hasValue(1);
	}

	@Test
	void aDeniedClientIsDeniedHoweverTheProxyWritesItsAddress() {
		// each of these was judged as the proxy (127.0.0.1, allowed) and let through
		for (String forwardedFor : new String[] { "::ffff:203.0.113.66", "203.0.113.66:51234",
				"[::ffff:203.0.113.66]:443", "::ffff:10.9.8.7, 127.0.0.5:80" }) {
			assertDenied(run("127.0.0.1", forwardedFor));
		}
		assertThat(this.passed).hasValue(0);
		assertThat(this.registry.get("gateway.deny.list.denied").counter().count()).isEqualTo(4);
	}

	@Test
	void allowedAndMalformedPassUntouched() {
		assertThat(run("127.0.0.1", "11.0.0.1").getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(run("127.0.0.1", "unknown").getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(run("127.0.0.1", null).getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(this.passed).hasValue(3);
		assertThat(run("127.0.0.1", "[2001:db8::66]:443").getResponse().getStatusCode()).as("an IPv6 client")
			.isEqualTo(HttpStatus.OK);
		assertThat(this.passed).hasValue(4);
		assertThat(this.registry.get("gateway.deny.list.denied").counter().count()).isZero();
	}

}
