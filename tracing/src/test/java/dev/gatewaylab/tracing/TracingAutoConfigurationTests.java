package dev.gatewaylab.tracing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

class TracingAutoConfigurationTests {

	private ConfigurableApplicationContext context;

	private HttpServer zipkin;

	@AfterEach
	void close() {
		if (this.context != null) {
			this.context.close();
		}
		if (this.zipkin != null) {
			this.zipkin.stop(0);
		}
	}

	@Test
	void absentByDefault() {
		this.context = start();
		assertThat(this.context.getBeanNamesForType(Tracer.class)).isEmpty();
		assertThat(this.context.getBeanNamesForType(brave.Tracing.class)).isEmpty();
		assertThat(this.context.getBeanNamesForType(AdjustableSampler.class)).isEmpty();
	}

	@Test
	void sampledSpansReachZipkinButNotTheActuators() throws IOException {
		Queue<String> received = new ConcurrentLinkedQueue<>();
		this.zipkin = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.zipkin.createContext("/api/v2/spans", (exchange) -> {
			received.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
			exchange.sendResponseHeaders(202, -1);
			exchange.close();
		});
		this.zipkin.start();
		this.context = start("--tracing.enabled=true", "--management.tracing.sampling.probability=1.0",
				"--management.tracing.export.zipkin.endpoint=http://127.0.0.1:" + this.zipkin.getAddress().getPort()
						+ "/api/v2/spans");
		Tracer tracer = this.context.getBean(Tracer.class);
		tracer.nextSpan().name("scrape").tag("http.url", "/actuator/prometheus").start().end();
		Span span = tracer.nextSpan().name("probe").start();
		span.end();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> received.stream().anyMatch((body) -> body.contains(span.context().traceId())));
		// the management port's own requests are not sent
		assertThat(received).noneMatch((body) -> body.contains("/actuator"));
	}

	@Test
	void aStoppedZipkinNeverHoldsASpanUpAndDroppedSpansAreCounted() throws IOException {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		this.context = start("--tracing.enabled=true", "--management.tracing.sampling.probability=1.0",
				"--management.tracing.export.zipkin.endpoint=http://127.0.0.1:" + closedPort + "/api/v2/spans");
		Tracer tracer = this.context.getBean(Tracer.class);
		long start = System.nanoTime();
		for (int i = 0; i < 500; i++) {
			tracer.nextSpan().name("probe").start().end();
		}
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
		MeterRegistry registry = this.context.getBean(MeterRegistry.class);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> registry.counter("zipkin.reporter.spans.dropped").count() >= 500);
	}

	@Test
	void samplingProbabilityChangesAtRunTime() {
		this.context = start("--tracing.enabled=true", "--management.tracing.sampling.probability=0.0",
				"--management.tracing.export.zipkin.endpoint=http://127.0.0.1:9/api/v2/spans");
		Tracer tracer = this.context.getBean(Tracer.class);
		assertThat(tracer.nextSpan().context().sampled()).isFalse();
		TracingEndpoint endpoint = new TracingEndpoint(this.context.getBean(AdjustableSampler.class), "-");
		assertThat(endpoint.sample(1.0f)).containsEntry("samplingProbability", 1.0f);
		assertThat(tracer.nextSpan().context().sampled()).isTrue();
		assertThatExceptionOfType(InvalidEndpointRequestException.class).isThrownBy(() -> endpoint.sample(2.0f));
		assertThat(endpoint.state()).containsEntry("samplingProbability", 1.0f);
	}

	private static ConfigurableApplicationContext start(String... args) {
		return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE).run(args);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

}
