package dev.gatewaylab.gateway.proxy;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.cloud.gateway.config.GlobalCorsProperties;
import org.springframework.cloud.gateway.handler.FilteringWebHandler;
import org.springframework.cloud.gateway.handler.RoutePredicateHandlerMapping;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.web.reactive.accept.ApiVersionStrategy;

/**
 * The gateway's route lookup ({@link RouteLookupHandlerMapping}) in place of the
 * framework's handler mapping, which backs off when this bean exists;
 * {@code GATEWAY_FRAMEWORK_ROUTE_LOOKUP=true} ({@code gateway.framework-route-lookup})
 * keeps the framework's.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "gateway.framework-route-lookup", havingValue = "false", matchIfMissing = true)
class RouteLookupConfiguration {

	@Bean
	RoutePredicateHandlerMapping routeLookupHandlerMapping(FilteringWebHandler webHandler, RouteLocator routeLocator,
			GlobalCorsProperties globalCorsProperties, Environment environment,
			ObjectProvider<ApiVersionStrategy> apiVersionStrategy) {
		RouteLookupHandlerMapping handlerMapping = new RouteLookupHandlerMapping(webHandler, routeLocator,
				globalCorsProperties, environment);
		apiVersionStrategy.ifAvailable(handlerMapping::setApiVersionStrategy);
		return handlerMapping;
	}

}
