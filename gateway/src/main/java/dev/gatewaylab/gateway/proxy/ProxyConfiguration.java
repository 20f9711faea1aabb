package dev.gatewaylab.gateway.proxy;

import java.util.List;

import reactor.netty.http.client.HttpClient;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.cloud.gateway.config.GatewayProperties;
import org.springframework.cloud.gateway.config.HttpClientProperties;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The gateway's own routing and response-writing filters, in place of Spring Cloud
 * Gateway's {@code NettyRoutingFilter} and {@code NettyWriteResponseFilter} — which are
 * off exactly when these are on ({@code global-filter.netty-routing.enabled},
 * {@code GATEWAY_FRAMEWORK_ROUTING}, default false).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "spring.cloud.gateway.server.webflux.global-filter.netty-routing.enabled",
		havingValue = "false")
class ProxyConfiguration {

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
