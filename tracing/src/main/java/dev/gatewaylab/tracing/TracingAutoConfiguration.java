package dev.gatewaylab.tracing;

import brave.handler.MutableSpan;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.tracing.exporter.SpanExportingPredicate;
import zipkin2.reporter.BytesEncoder;
import zipkin2.reporter.BytesMessageSender;
import zipkin2.reporter.ReporterMetrics;
import zipkin2.reporter.brave.AsyncZipkinSpanHandler;
import zipkin2.reporter.metrics.micrometer.MicrometerReporterMetrics;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.micrometer.tracing.autoconfigure.TracingProperties;
import org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration;
import org.springframework.boot.micrometer.tracing.brave.autoconfigure.zipkin.ZipkinWithBraveTracingAutoConfiguration;
import org.springframework.boot.zipkin.autoconfigure.ZipkinAutoConfiguration;
import org.springframework.boot.zipkin.autoconfigure.ZipkinProperties;
import org.springframework.context.annotation.Bean;

/**
 * What the lab adds to Spring Boot's Brave + Zipkin tracing when {@code tracing.enabled}
 * is true ({@link TracingSwitch}): a sampler whose probability can change at run time,
 * and a Zipkin reporter that never holds a request up. Spans are queued (at most
 * {@code tracing.zipkin.queued-max-spans}) and sent in batches from the reporter's own
 * thread; a full queue, or a Zipkin that is down or slow, drops spans and counts them in
 * {@code zipkin_reporter_spans_dropped_total} (with the reporter's other meters). The
 * reporter logs the first failed send at WARNING and later ones at FINE: no log line per
 * request. Start-up never waits for Zipkin.
 */
@AutoConfiguration(before = { BraveAutoConfiguration.class, ZipkinWithBraveTracingAutoConfiguration.class },
		after = ZipkinAutoConfiguration.class)
@ConditionalOnBooleanProperty(TracingSwitch.ENABLED)
public final class TracingAutoConfiguration {

	@Bean
	AdjustableSampler adjustableSampler(TracingProperties properties) {
		return new AdjustableSampler(properties.getSampling().getProbability());
	}

	@Bean
	@ConditionalOnBean(BytesMessageSender.class)
	AsyncZipkinSpanHandler asyncZipkinSpanHandler(BytesMessageSender sender, BytesEncoder<MutableSpan> encoder,
			ObjectProvider<MeterRegistry> meterRegistry,
			@Value("${tracing.zipkin.queued-max-spans:10000}") int queuedMaxSpans) {
		MeterRegistry registry = meterRegistry.getIfAvailable();
		ReporterMetrics metrics = (registry != null) ? MicrometerReporterMetrics.create(registry)
				: ReporterMetrics.NOOP_METRICS;
		return AsyncZipkinSpanHandler.newBuilder(sender).queuedMaxSpans(queuedMaxSpans).metrics(metrics).build(encoder);
	}

	/**
	 * The management port's own requests (Prometheus scrapes, health probes, this
	 * endpoint) are traced like any other but not sent: they would outnumber the lab's
	 * traces at low load.
	 */
	@Bean
	SpanExportingPredicate skipActuatorSpans() {
		return (span) -> !span.getTags().getOrDefault("http.url", "").startsWith("/actuator");
	}

	@Bean
	@ConditionalOnAvailableEndpoint
	TracingEndpoint tracingEndpoint(AdjustableSampler sampler, ZipkinProperties zipkin) {
		return new TracingEndpoint(sampler, zipkin.getEndpoint());
	}

}
