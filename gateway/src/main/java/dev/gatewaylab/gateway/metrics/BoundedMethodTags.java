package dev.gatewaylab.gateway.metrics;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.Tags;

import org.springframework.cloud.gateway.filter.headers.observation.DefaultGatewayObservationConvention;
import org.springframework.cloud.gateway.filter.headers.observation.GatewayContext;
import org.springframework.cloud.gateway.filter.headers.observation.GatewayObservationConvention;
import org.springframework.cloud.gateway.support.tagsprovider.GatewayTagsProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.web.server.ServerWebExchange;

/**
 * Keeps the HTTP method tag of the gateway's meters bounded: a method the client made up
 * ({@code PROBEM17}) is tagged {@code OTHER}, on {@code spring_cloud_gateway_requests}
 * and {@code http_client_requests} alike. Spring Cloud Gateway tags the raw method name,
 * so each invented method added a set of series that stayed until restart. (The WebFlux
 * {@code http.server.requests} convention already says {@code UNKNOWN} for these.)
 * <p>
 * Cost: one identity comparison against the eight standard {@link HttpMethod} constants
 * per request; nothing is allocated for a standard method.
 */
@Configuration(proxyBeanMethods = false)
public class BoundedMethodTags {

	public static final String OTHER = "OTHER";

	private static final HttpMethod[] STANDARD = HttpMethod.values();

	/**
	 * True for the eight methods {@link HttpMethod#valueOf} returns as constants (GET ...
	 * TRACE).
	 */
	public static boolean isStandard(HttpMethod method) {
		for (HttpMethod standard : STANDARD) {
			if (standard == method) {
				return true;
			}
		}
		return false;
	}

	/**
	 * {@code httpMethod=OTHER} for a method the client made up, and no tag otherwise. The
	 * metrics filter merges its tags providers so that the first one's tag wins; ordered
	 * first, this one's {@code OTHER} wins over the raw name Spring Cloud Gateway's
	 * {@code GatewayHttpTagsProvider} gives.
	 */
	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	GatewayTagsProvider boundedMethodTagsProvider() {
		return new BoundedMethodTagsProvider();
	}

	@Bean
	GatewayObservationConvention boundedMethodObservationConvention() {
		return new BoundedObservationConvention();
	}

	static final class BoundedMethodTagsProvider implements GatewayTagsProvider {

		private static final Tags METHOD_OTHER = Tags.of("httpMethod", OTHER);

		@Override
		public Tags apply(ServerWebExchange exchange) {
			return isStandard(exchange.getRequest().getMethod()) ? Tags.empty() : METHOD_OTHER;
		}

	}

	static final class BoundedObservationConvention extends DefaultGatewayObservationConvention {

		/** GatewayDocumentedObservation's METHOD key (that enum is package-private). */
		private static final KeyValue METHOD_OTHER = KeyValue.of("http.method", OTHER);

		@Override
		public KeyValues getLowCardinalityKeyValues(GatewayContext context) {
			KeyValues values = super.getLowCardinalityKeyValues(context);
			if (context.getRequest() == null || isStandard(context.getRequest().getMethod())) {
				return values;
			}
			return values.and(METHOD_OTHER);
		}

		@Override
		public String getContextualName(GatewayContext context) {
			if (context.getRequest() == null || isStandard(context.getRequest().getMethod())) {
				return super.getContextualName(context);
			}
			return "HTTP " + OTHER;
		}

	}

}
