package dev.gatewaylab.gatewaymvc.retry;

import org.springframework.cloud.gateway.server.mvc.filter.FilterSupplier;
import org.springframework.cloud.gateway.server.mvc.filter.SimpleFilterSupplier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Makes {@code UpstreamRetry} a filter name the routes' YAML can use. */
@Configuration(proxyBeanMethods = false)
class UpstreamRetryConfiguration {

	@Bean
	FilterSupplier upstreamRetryFilterSupplier() {
		return new SimpleFilterSupplier(UpstreamRetryFilterFunctions.class);
	}

}
