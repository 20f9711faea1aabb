package dev.gatewaylab.gateway.denylist;

import java.nio.file.Path;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

import dev.gatewaylab.gateway.clientip.ClientIpResolver;

/**
 * Registers the deny filter only when a rule file is configured: with none it costs
 * nothing at all.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(DenyListConfiguration.FileConfigured.class)
class DenyListConfiguration {

	/**
	 * Bean name of the access-log global filter
	 * (dev.gatewaylab.accesslog.webflux.AccessLogGlobalFilter).
	 */
	static final String ACCESS_LOG_FILTER = "accessLogGlobalFilter";

	@Bean(destroyMethod = "close")
	ReloadingDenyList denyList(DenyListProperties properties, MeterRegistry registry) {
		Path compiledDir = StringUtils.hasText(properties.compiledDir()) ? Path.of(properties.compiledDir().strip())
				: null;
		return new ReloadingDenyList(Path.of(properties.file().strip()), properties.onError(), compiledDir,
				properties.reloadInterval(), registry);
	}

	@Bean
	DenyListWebFilter denyListWebFilter(ReloadingDenyList denyList, ClientIpResolver clientIp, BeanFactory beans) {
		// Denied answers go through the access-log filter so they are logged exactly like
		// routed ones.
		GlobalFilter accessLog = beans.containsBean(ACCESS_LOG_FILTER)
				? beans.getBean(ACCESS_LOG_FILTER, GlobalFilter.class) : (exchange, chain) -> chain.filter(exchange);
		return new DenyListWebFilter(denyList, clientIp, accessLog);
	}

	@Bean
	DenyListEndpoint denyListEndpoint(ReloadingDenyList denyList) {
		return new DenyListEndpoint(denyList);
	}

	static class FileConfigured implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return StringUtils.hasText(context.getEnvironment().getProperty("gateway.deny-list.file"));
		}

	}

}
