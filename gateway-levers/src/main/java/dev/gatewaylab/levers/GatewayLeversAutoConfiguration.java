package dev.gatewaylab.levers;

import java.util.List;

import dev.gatewaylab.levers.headers.ForwardedHeaders;
import dev.gatewaylab.levers.headers.HopByHopHeaders;
import dev.gatewaylab.levers.lookup.RouteDispatchWebFilter;
import dev.gatewaylab.levers.lookup.RouteLookupHandlerMapping;
import dev.gatewaylab.levers.retry.LeanRetryGatewayFilterFactory;
import dev.gatewaylab.levers.routing.ResponseWriteFilter;
import dev.gatewaylab.levers.routing.UpstreamRoutingFilter;
import dev.gatewaylab.levers.url.LeanRouteToRequestUrlFilter;
import reactor.netty.http.client.HttpClient;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.cloud.gateway.config.GatewayAutoConfiguration;
import org.springframework.cloud.gateway.config.GatewayProperties;
import org.springframework.cloud.gateway.config.GlobalCorsProperties;
import org.springframework.cloud.gateway.config.HttpClientProperties;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.handler.FilteringWebHandler;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.reactive.accept.ApiVersionStrategy;

/**
 * The levers of a Spring Cloud Gateway (WebFlux) application: each one's beans exist only
 * while it is on ({@link Lever}, {@code gateway-levers.<name>.enabled}, default true).
 * Ordered before the gateway's own auto-configuration, whose route mapping backs off when
 * the lever's exists. The framework's routing filters and {@code Retry} factory are
 * switched off by {@link LeversEnvironmentPostProcessor}; a lever whose framework
 * counterpart the application switches on by name stays off, so never are both there.
 */
@AutoConfiguration(before = GatewayAutoConfiguration.class)
@ConditionalOnClass(GatewayAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnBooleanProperty(name = "spring.cloud.gateway.server.webflux.enabled", matchIfMissing = true)
public final class GatewayLeversAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnLever(Lever.ROUTING)
	@ConditionalOnBooleanProperty(name = LeversEnvironmentPostProcessor.NETTY_ROUTING_ENABLED, havingValue = false)
	static class RoutingConfiguration {

		@Bean
		UpstreamRoutingFilter upstreamRoutingFilter(HttpClient httpClient,
				ObjectProvider<List<HttpHeadersFilter>> headersFilters, HttpClientProperties properties) {
			return new UpstreamRoutingFilter(httpClient, headersFilters, properties);
		}

		@Bean
		ResponseWriteFilter responseWriteFilter(GatewayProperties properties,
				ObjectProvider<List<HttpHeadersFilter>> headersFilters) {
			return new ResponseWriteFilter(properties.getStreamingMediaTypes(), headersFilters);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnLever(Lever.ROUTE_LOOKUP)
	static class RouteLookupConfiguration {

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
		@ConditionalOnLever(Lever.DISPATCH)
		RouteDispatchWebFilter routeDispatchWebFilter(RouteLookupHandlerMapping routeLookupHandlerMapping,
				ApplicationContext context, ObjectProvider<DispatcherHandler> dispatcher) {
			return new RouteDispatchWebFilter(routeLookupHandlerMapping, context, dispatcher);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnLever(Lever.RETRY)
	@ConditionalOnBooleanProperty(name = LeversEnvironmentPostProcessor.RETRY_FILTER_ENABLED, havingValue = false)
	static class RetryConfiguration {

		@Bean
		LeanRetryGatewayFilterFactory leanRetryGatewayFilterFactory() {
			return new LeanRetryGatewayFilterFactory();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnLever(Lever.REQUEST_URL)
	@ConditionalOnBooleanProperty(name = LeversEnvironmentPostProcessor.REQUEST_URL_ENABLED, havingValue = false)
	static class RequestUrlConfiguration {

		@Bean
		LeanRouteToRequestUrlFilter leanRouteToRequestUrlFilter() {
			return new LeanRouteToRequestUrlFilter();
		}

	}

	/**
	 * The two header levers replace beans the framework defines without a condition a
	 * property could turn off: a post-processor hands the lean filter out in their place
	 * (same order, same header set), only while the lever is on.
	 */
	@Configuration(proxyBeanMethods = false)
	static class HeadersConfiguration {

		@Bean
		@ConditionalOnLever(Lever.HOP_BY_HOP_HEADERS)
		static BeanPostProcessor leanHopByHopHeadersFilter() {
			return HopByHopHeaders.replacingFrameworkFilter();
		}

		@Bean
		@ConditionalOnLever(Lever.FORWARDED_HEADERS)
		static BeanPostProcessor leanForwardedHeadersFilters() {
			return ForwardedHeaders.replacingFrameworkFilters();
		}

	}

}
