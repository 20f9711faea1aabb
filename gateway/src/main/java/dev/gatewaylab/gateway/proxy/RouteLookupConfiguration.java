package dev.gatewaylab.gateway.proxy;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.cloud.gateway.config.GlobalCorsProperties;
import org.springframework.cloud.gateway.handler.FilteringWebHandler;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.reactive.accept.ApiVersionStrategy;

/**
 * The gateway's route lookup ({@link RouteLookupHandlerMapping}) in place of the
 * framework's handler mapping, which backs off when this bean exists;
 * {@code GATEWAY_FRAMEWORK_ROUTE_LOOKUP=true} ({@code gateway.framework-route-lookup})
 * keeps the framework's. With it, {@link RouteDispatchWebFilter} hands a request whose
 * route is known at once to the gateway's filter chain without WebFlux's dispatcher;
 * {@code GATEWAY_FRAMEWORK_DISPATCH=true} ({@code gateway.framework-dispatch}) leaves
 * every request to the dispatcher.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "gateway.framework-route-lookup", havingValue = "false", matchIfMissing = true)
class RouteLookupConfiguration {

	@Bean
	RouteLookupHandlerMapping routeLookupHandlerMapping(FilteringWebHandler webHandler, RouteLocator routeLocator,
			GlobalCorsProperties globalCorsProperties, Environment environment,
			ObjectProvider<ApiVersionStrategy> apiVersionStrategy) {
		RouteLookupHandlerMapping handlerMapping = new RouteLookupHandlerMapping(webHandler, routeLocator,
				globalCorsProperties, environment);
		apiVersionStrategy.ifAvailable(handlerMapping::setApiVersionStrategy);
		return handlerMapping;
	}

	@Bean
	@ConditionalOnProperty(name = "gateway.framework-dispatch", havingValue = "false", matchIfMissing = true)
	RouteDispatchWebFilter routeDispatchWebFilter(RouteLookupHandlerMapping routeLookupHandlerMapping,
			ApplicationContext context, ObjectProvider<DispatcherHandler> dispatcher) {
		return new RouteDispatchWebFilter(routeLookupHandlerMapping, context, dispatcher);
	}

}
