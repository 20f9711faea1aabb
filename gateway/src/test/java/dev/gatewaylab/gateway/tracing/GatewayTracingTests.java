package dev.gatewaylab.gateway.tracing;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

import dev.gatewaylab.testsupport.CapturingAppender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The gateway with tracing on, between a real upstream and a Zipkin intake: its server
 * span, its client span to the upstream (a child of the server span) whose context the
 * upstream receives as W3C {@code traceparent}; the trace id in the access-log line, in
 * problem+json bodies and as an exemplar on the latency histogram; the sampling
 * probability changed at run time on the management port.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = { "management.server.port=0",
		"LOG_PATH=target/logs", "tracing.enabled=true", "TRACING_SAMPLING_PROBABILITY=1.0" })
class GatewayTracingTests {

	static final TracedUpstream upstream = new TracedUpstream();

	static final FakeZipkin zipkin = new FakeZipkin();

	static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

	@DynamicPropertySource
	static void endpoints(DynamicPropertyRegistry registry) {
		upstream.register(registry, zipkin);
	}

	@LocalServerPort
	int port;

	@LocalManagementPort
	int managementPort;

	@Test
	void oneTraceFromTheGatewaysServerSpanThroughItsClientSpanToTheUpstream() {
		CapturingAppender accessLog = CapturingAppender.attachTo("dev.gatewaylab.gateway.access");
		try {
			client(this.port).get().uri("/api/studies/1").exchange().expectStatus().isOk();
			String[] traceparent = upstream.lastTraceparent().split("-");
			assertThat(traceparent).hasSize(4);
			assertThat(traceparent[0]).isEqualTo("00");
			assertThat(traceparent[3]).isEqualTo("01");
			String traceId = traceparent[1];
			await().atMost(Duration.ofSeconds(10)).until(() -> zipkin.trace(traceId).size() >= 2);
			List<JsonNode> spans = zipkin.trace(traceId);
			JsonNode server = only(spans, "SERVER");
			JsonNode client = only(spans, "CLIENT");
			assertThat(server.path("localEndpoint").path("serviceName").asString()).isEqualTo("gateway");
			assertThat(server.has("parentId")).isFalse();
			assertThat(client.path("parentId").asString()).isEqualTo(server.path("id").asString());
			// the upstream's server span will be the child of the gateway's client span
			assertThat(client.path("id").asString()).isEqualTo(traceparent[2]);
			accessLog.awaitMessageContaining("traceId=" + traceId);
		}
		finally {
			accessLog.detach();
		}
	}

	@Test
	void aClientsTraceparentIsContinued() {
		client(this.port).get()
			.uri("/api/studies/1")
			.header("traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b7-01")
			.exchange()
			.expectStatus()
			.isOk();
		assertThat(upstream.lastTraceparent()).startsWith("00-" + TRACE_ID + "-").endsWith("-01");
		await().atMost(Duration.ofSeconds(10))
			.until(() -> zipkin.trace(TRACE_ID)
				.stream()
				.anyMatch((span) -> "00f067aa0ba902b7".equals(span.path("parentId").asString())));
	}

	@Test
	void theGatewaysOwnErrorsNameTheTrace() {
		// no route: 404; the monolith route's upstream refuses connections: 503
		for (String path : new String[] { "/no/such/route", "/login" }) {
			client(this.port).get()
				.uri(path)
				.header("traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b7-01")
				.exchange()
				.expectHeader()
				.contentType("application/problem+json")
				.expectBody()
				.jsonPath("$.traceId")
				.isEqualTo(TRACE_ID);
		}
	}

	@Test
	void theLatencyHistogramCarriesTraceIdsAsExemplars() {
		// An exemplar is kept at most every few tens of ms per series (the registry's
		// exemplar sampler), and the timer is recorded as the exchange completes, which
		// may
		// be just after the client has its response: a request, then a scrape, until a
		// bucket has one. A bucket keeps its exemplar for a few seconds, so it may be an
		// earlier request's.
		Pattern bucket = Pattern.compile(
				"spring_cloud_gateway_requests_seconds_bucket\\{[^}]*\\} \\d+ # \\{[^}]*trace_id=\"([0-9a-f]{32})\"");
		AtomicReference<String> scrape = new AtomicReference<>("");
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).until(() -> {
			client(this.port).get().uri("/api/studies/1").exchange().expectStatus().isOk();
			return bucket.matcher(scrape(scrape)).find();
		});
		Matcher exemplar = bucket.matcher(scrape.get());
		assertThat(exemplar.find()).as(scrape.get()).isTrue();
		assertThat(upstream.traceIds()).contains(exemplar.group(1));
		// OpenMetrics allows exemplars on counters and histogram buckets only: Prometheus
		// refuses the whole scrape for one on a timer's _count
		assertThat(scrape.get().lines().filter((line) -> line.contains(" # {")))
			.allMatch((line) -> line.matches("^\\w+_(bucket|total)\\{.*"));
	}

	/** Scrapes the management port in OpenMetrics (with exemplars), keeping the text. */
	private String scrape(AtomicReference<String> into) {
		into.set(client(this.managementPort).get()
			.uri("/actuator/prometheus")
			.header("Accept", "application/openmetrics-text; version=1.0.0")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody());
		return into.get();
	}

	@Test
	void samplingIsSetAtRunTimeOnTheManagementPort() {
		WebTestClient management = client(this.managementPort);
		try {
			management.post()
				.uri("/actuator/tracing")
				.bodyValue(Map.of("samplingProbability", 0.0))
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.samplingProbability")
				.isEqualTo(0.0);
			client(this.port).get().uri("/api/studies/1").exchange().expectStatus().isOk();
			assertThat(upstream.lastTraceparent()).endsWith("-00");
			management.post()
				.uri("/actuator/tracing")
				.bodyValue(Map.of("samplingProbability", 1.5))
				.exchange()
				.expectStatus()
				.isBadRequest();
		}
		finally {
			management.post()
				.uri("/actuator/tracing")
				.bodyValue(Map.of("samplingProbability", 1.0))
				.exchange()
				.expectStatus()
				.isOk();
		}
	}

	private static JsonNode only(List<JsonNode> spans, String kind) {
		List<JsonNode> ofKind = spans.stream().filter((span) -> kind.equals(span.path("kind").asString())).toList();
		assertThat(ofKind).as(kind + " spans in " + spans).hasSize(1);
		return ofKind.get(0);
	}

	static WebTestClient client(int port) {
		return WebTestClient.bindToServer()
			.baseUrl("http://127.0.0.1:" + port)
			.responseTimeout(Duration.ofSeconds(10))
			.build();
	}

}
