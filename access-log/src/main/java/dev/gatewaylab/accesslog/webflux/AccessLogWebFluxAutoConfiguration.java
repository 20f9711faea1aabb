package dev.gatewaylab.accesslog.webflux;

import dev.gatewaylab.accesslog.LoggingMode;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.context.annotation.Bean;

/**
 * The access log of a Spring Cloud Gateway (WebFlux) application: its global filter and
 * the request-id header filter, with what the application's {@link ExchangeDetails} bean
 * adds, if it has one.
 */
@AutoConfiguration
@ConditionalOnClass(GlobalFilter.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
public final class AccessLogWebFluxAutoConfiguration {

	@Bean
	AccessLogGlobalFilter accessLogGlobalFilter(@Value("${" + LoggingMode.PROPERTY + ":async}") String mode,
			ObjectProvider<ExchangeDetails> details) {
		return new AccessLogGlobalFilter(LoggingMode.of(mode), details.getIfAvailable());
	}

	@Bean
	RequestIdHeadersFilter requestIdHeadersFilter() {
		return new RequestIdHeadersFilter();
	}

}
