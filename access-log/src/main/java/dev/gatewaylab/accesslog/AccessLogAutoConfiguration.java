package dev.gatewaylab.accesslog;

import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With Log4j2 and Micrometer, the counter of log events the full async queue dropped
 * ({@code gateway_log_events_dropped_total}); the access log's filters are configured per
 * server ({@code AccessLogWebFluxAutoConfiguration}).
 */
@AutoConfiguration
public final class AccessLogAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "io.micrometer.core.instrument.binder.MeterBinder",
			"org.apache.logging.log4j.core.async.AsyncQueueFullPolicy" })
	static class DroppedEventsConfiguration {

		@Bean
		MeterBinder droppedLogEventsMetrics() {
			return new DroppedLogEventsMetrics();
		}

	}

}
