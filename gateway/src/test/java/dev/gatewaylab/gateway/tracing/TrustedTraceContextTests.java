package dev.gatewaylab.gateway.tracing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import reactor.netty.http.client.HttpClient;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * A trace context is adopted from a trusted proxy only. The gateway traces with sampling
 * at 0 % and trusts 127.0.0.2 alone: a client on 127.0.0.1 that sends a trace context
 * with the sampled flag set and a trace id of its choosing gets a new, unsampled trace
 * (the sampler decided), and the upstream never sees what the client sent; the same
 * request through the trusted proxy (a client bound to 127.0.0.2) continues the caller's
 * sampled trace.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "LOG_PATH=target/logs", "tracing.enabled=true",
				"TRACING_SAMPLING_PROBABILITY=0.0", "gateway.trusted-proxies=127.0.0.2/32" })
class TrustedTraceContextTests {

	static final TracedUpstream upstream = new TracedUpstream();

	static final FakeZipkin zipkin = new FakeZipkin();

	static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

	static final String SPAN_ID = "00f067aa0ba902b7";

	static final String SAMPLED_TRACEPARENT = "00-" + TRACE_ID + "-" + SPAN_ID + "-01";

	@DynamicPropertySource
	static void endpoints(DynamicPropertyRegistry registry) {
		upstream.register(registry, zipkin);
	}

	@LocalServerPort
	int port;

	@Test
	void anUntrustedPeersTraceparentIsNotAdoptedNorSentUpstreamAndTheSamplerDecides() {
		WebTestClient.RequestHeadersSpec<?> request = untrusted().get()
			.uri("/api/studies/1")
			.header("traceparent", SAMPLED_TRACEPARENT)
			.header("tracestate", "lab=chosen")
			.header("baggage", "lab=chosen");
		request.exchange().expectStatus().isOk();
		String sent = upstream.lastTraceparent();
		assertThat(sent).as("a new trace, not sampled: the gateway's own traceparent")
			.matches("00-[0-9a-f]{32}-[0-9a-f]{16}-00")
			.doesNotContain(TRACE_ID);
		assertThat(upstream.lastHeaders().getAll("traceparent")).containsExactly(sent);
		assertThat(upstream.lastHeaders().contains("tracestate")).isFalse();
		assertThat(upstream.lastHeaders().contains("baggage")).isFalse();
		untrusted().get()
			.uri("/no/such/route")
			.header("traceparent", SAMPLED_TRACEPARENT)
			.exchange()
			.expectStatus()
			.isNotFound()
			.expectBody()
			.jsonPath("$.traceId")
			.value(String.class, (traceId) -> assertThat(traceId).hasSize(32).isNotEqualTo(TRACE_ID));
	}

	@Test
	void anUntrustedPeersB3IsNeitherAdoptedNorSentUpstream() {
		untrusted().get()
			.uri("/api/studies/1")
			.header("b3", TRACE_ID + "-" + SPAN_ID + "-1")
			.header("X-B3-TraceId", TRACE_ID)
			.header("X-B3-SpanId", SPAN_ID)
			.header("X-B3-Sampled", "1")
			.header("X-B3-Flags", "1")
			.exchange()
			.expectStatus()
			.isOk();
		assertThat(upstream.lastTraceparent()).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-00").doesNotContain(TRACE_ID);
		for (String name : TrustedTraceContext.HEADERS) {
			if (!name.equals("traceparent")) {
				assertThat(upstream.lastHeaders().contains(name)).as(name).isFalse();
			}
		}
	}

	@Test
	void aTrustedProxysTraceparentIsAdoptedWithItsSamplingDecision() {
		assumeThat(canBind("127.0.0.2")).as("127.0.0.2 is a local address (Linux: all of 127/8)").isTrue();
		WebTestClient viaProxy = client(HttpClient.create().bindAddress(() -> new InetSocketAddress("127.0.0.2", 0)));
		viaProxy.get()
			.uri("/api/studies/1")
			.header("traceparent", SAMPLED_TRACEPARENT)
			.exchange()
			.expectStatus()
			.isOk();
		assertThat(upstream.lastTraceparent()).startsWith("00-" + TRACE_ID + "-").endsWith("-01");
		viaProxy.get()
			.uri("/api/studies/1")
			.header("b3", TRACE_ID + "-" + SPAN_ID + "-1")
			.exchange()
			.expectStatus()
			.isOk();
		assertThat(upstream.lastTraceparent()).as("B3 from the trusted proxy")
			.startsWith("00-" + TRACE_ID + "-")
			.endsWith("-01");
	}

	private WebTestClient untrusted() {
		return client(HttpClient.create());
	}

	private WebTestClient client(HttpClient httpClient) {
		return WebTestClient.bindToServer(new ReactorClientHttpConnector(httpClient))
			.baseUrl("http://127.0.0.1:" + this.port)
			.responseTimeout(Duration.ofSeconds(10))
			.build();
	}

	private static boolean canBind(String address) {
		try (ServerSocket socket = new ServerSocket()) {
			socket.bind(new InetSocketAddress(address, 0));
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
