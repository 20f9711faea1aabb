package dev.gatewaylab.gatewaymvc.client;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.micrometer.observation.ObservationRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.cloud.gateway.server.mvc.config.GatewayMvcProperties;
import org.springframework.cloud.gateway.server.mvc.config.RouteProperties;
import org.springframework.cloud.gateway.server.mvc.handler.ProxyExchange;
import org.springframework.cloud.gateway.server.mvc.handler.RestClientProxyExchange;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

/**
 * The upstream client: the client the levers choose ({@link OutboundClient}) in place of
 * Spring Boot's auto-detected one, one per route with the route's response timeout, each
 * built like Spring Cloud Gateway's own ({@link RestClientProxyExchange} on Boot's
 * {@code RestClient.Builder}) — without the client observation unless asked for: the
 * server's {@code http.server.requests} already times every request once, as the WebFlux
 * gateway times each once.
 */
@Configuration(proxyBeanMethods = false)
class OutboundClientConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(OutboundClientConfiguration.class);

	/** A route's response timeout, in its metadata: milliseconds or a duration. */
	static final String RESPONSE_TIMEOUT = "response-timeout";

	@Bean
	OutboundClient outboundClient(@Value("${gateway-mvc.client.factory:jdk}") String kind,
			@Value("${gateway-mvc.client.executor:virtual}") String executor,
			@Value("${gateway-mvc.client.http-version:HTTP_1_1}") HttpClient.Version version) {
		return new OutboundClient(kind, executor, version);
	}

	/** Replaces Spring Boot's detected client (its bean backs off for this one). */
	@Bean
	ClientHttpRequestFactoryBuilder<?> clientHttpRequestFactoryBuilder(OutboundClient client) {
		return client.builder();
	}

	@Bean
	ProxyExchange routeProxyExchange(ClientHttpRequestFactoryBuilder<?> factories, HttpClientSettings settings,
			ObjectProvider<RestClient.Builder> restClients, ObjectProvider<ObservationRegistry> observations,
			GatewayMvcProperties properties, OutboundClient client,
			@Value("${gateway-mvc.client.response-timeout:5s}") Duration responseTimeout,
			@Value("${gateway-mvc.client.observation:false}") boolean observed) {
		ObservationRegistry registry = observed ? observations.getIfAvailable(() -> ObservationRegistry.NOOP)
				: ObservationRegistry.NOOP;
		Map<String, ProxyExchange> byRoute = new LinkedHashMap<>();
		StringBuilder summary = new StringBuilder();
		for (RouteProperties route : properties.getRoutes()) {
			Duration timeout = timeoutOf(route, responseTimeout);
			byRoute.put(route.getId(),
					proxy(factories, settings.withReadTimeout(timeout), restClients, registry, properties));
			summary.append(' ').append(route.getId()).append('=').append(timeout.toMillis()).append(" ms");
		}
		logger.info("Upstream client: {}, connect timeout {} ms, response timeouts:{}, client observation {}", client,
				(settings.connectTimeout() != null) ? settings.connectTimeout().toMillis() : "default", summary,
				observed ? "on" : "off");
		return new RouteProxyExchange(byRoute,
				proxy(factories, settings.withReadTimeout(responseTimeout), restClients, registry, properties));
	}

	private static ProxyExchange proxy(ClientHttpRequestFactoryBuilder<?> factories, HttpClientSettings settings,
			ObjectProvider<RestClient.Builder> restClients, ObservationRegistry registry,
			GatewayMvcProperties properties) {
		RestClient.Builder builder = restClients.getIfAvailable(RestClient::builder);
		RestClient restClient = builder.requestFactory(factories.build(settings)).observationRegistry(registry).build();
		return new RestClientProxyExchange(restClient, properties);
	}

	static Duration timeoutOf(RouteProperties route, Duration otherwise) {
		Object value = route.getMetadata().get(RESPONSE_TIMEOUT);
		if (value == null || value.toString().isBlank()) {
			return otherwise;
		}
		String text = value.toString().trim();
		return text.chars().allMatch(Character::isDigit) ? Duration.ofMillis(Long.parseLong(text))
				: DurationStyle.detectAndParse(text);
	}

}
