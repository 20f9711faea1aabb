package dev.gatewaylab.levers;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Switches off the framework's own component where a lever takes its place and the
 * framework offers a property for it: {@code NettyRoutingFilter} with its
 * {@code NettyWriteResponseFilter} ({@link Lever#ROUTING}), the {@code Retry} filter
 * factory ({@link Lever#RETRY}) and {@code RouteToRequestUrlFilter}
 * ({@link Lever#REQUEST_URL}). The defaults go into a property source of the lowest
 * precedence, so a value the application sets itself wins — and a lever whose framework
 * component the application keeps on by name stays off
 * ({@link GatewayLeversAutoConfiguration}).
 */
class LeversEnvironmentPostProcessor implements EnvironmentPostProcessor {

	static final String PROPERTY_SOURCE = "gatewayLevers";

	static final String NETTY_ROUTING_ENABLED = "spring.cloud.gateway.server.webflux.global-filter.netty-routing.enabled";

	static final String RETRY_FILTER_ENABLED = "spring.cloud.gateway.server.webflux.filter.retry.enabled";

	static final String REQUEST_URL_ENABLED = "spring.cloud.gateway.server.webflux.global-filter.route-to-request-url.enabled";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		Map<String, Object> defaults = new LinkedHashMap<>();
		if (Lever.ROUTING.isEnabled(environment)) {
			defaults.put(NETTY_ROUTING_ENABLED, "false");
		}
		if (Lever.RETRY.isEnabled(environment)) {
			defaults.put(RETRY_FILTER_ENABLED, "false");
		}
		if (Lever.REQUEST_URL.isEnabled(environment)) {
			defaults.put(REQUEST_URL_ENABLED, "false");
		}
		environment.getPropertySources().remove(PROPERTY_SOURCE);
		if (!defaults.isEmpty()) {
			environment.getPropertySources().addLast(new MapPropertySource(PROPERTY_SOURCE, defaults));
		}
	}

}
