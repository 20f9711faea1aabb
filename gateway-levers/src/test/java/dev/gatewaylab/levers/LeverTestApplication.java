package dev.gatewaylab.levers;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import reactor.core.publisher.Mono;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.handler.AsyncPredicate;
import org.springframework.cloud.gateway.handler.predicate.AbstractRoutePredicateFactory;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * A Spring Cloud Gateway application with nothing but what the tests need around the
 * levers: the exchange's attributes recorded when a request completes, a route predicate
 * that answers later (as one backed by a remote call would), and, when
 * {@code test.response-header-filter=true}, a second response header filter (which turns
 * off the routing lever's one-pass response header copy).
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
class LeverTestApplication {

	/** The request header whose value names the recorded exchange. */
	static final String CASE_HEADER = "X-Case";

	@Bean
	Recorder recorder() {
		return new Recorder();
	}

	@Bean
	LaterRoutePredicateFactory laterRoutePredicateFactory() {
		return new LaterRoutePredicateFactory();
	}

	@Bean
	@ConditionalOnBooleanProperty("test.response-header-filter")
	HttpHeadersFilter responseHeaderFilter() {
		return new HttpHeadersFilter() {
			@Override
			public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
				HttpHeaders copy = new HttpHeaders();
				copy.addAll(input);
				copy.set("X-Filtered", "yes");
				return copy;
			}

			@Override
			public boolean supports(Type type) {
				return type == Type.RESPONSE;
			}
		};
	}

	/**
	 * The attributes of each exchange that carried {@link #CASE_HEADER}, when it
	 * completed: every key, and its value reduced to what two gateways can agree on (a
	 * route by its id, a set of names sorted, an object that differs per exchange by its
	 * type).
	 */
	@Order(Ordered.HIGHEST_PRECEDENCE)
	static class Recorder implements WebFilter {

		private static final Set<String> DIFFERS_PER_EXCHANGE = Set.of(ServerWebExchange.LOG_ID_ATTRIBUTE);

		final Map<String, Map<String, String>> byCase = new ConcurrentHashMap<>();

		@Override
		public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
			String name = exchange.getRequest().getHeaders().getFirst(CASE_HEADER);
			if (name == null) {
				return chain.filter(exchange);
			}
			return chain.filter(exchange).doFinally((signal) -> this.byCase.put(name, snapshot(exchange)));
		}

		static Map<String, String> snapshot(ServerWebExchange exchange) {
			Map<String, String> attributes = new TreeMap<>();
			exchange.getAttributes().forEach((key, value) -> attributes.put(key, describe(key, value)));
			return attributes;
		}

		private static String describe(String key, Object value) {
			if (value == null) {
				return "null";
			}
			if (DIFFERS_PER_EXCHANGE.contains(key)) {
				return "(present)";
			}
			if (value instanceof Route route) {
				return "route " + route.getId();
			}
			if (value instanceof String || value instanceof Number || value instanceof Boolean
					|| value instanceof Enum<?> || value instanceof URI) {
				return value.toString();
			}
			if (value instanceof Collection<?> items && items.stream().allMatch(String.class::isInstance)) {
				List<String> names = new ArrayList<>();
				items.forEach((item) -> names.add(((String) item).toLowerCase(Locale.ROOT)));
				names.sort(null);
				return names.toString();
			}
			return "a " + value.getClass().getName().replaceAll("\\$.*", "");
		}

	}

	/**
	 * {@code Later=<millis>}: matches every request, but answers only after that many
	 * milliseconds, on another thread.
	 */
	static class LaterRoutePredicateFactory extends AbstractRoutePredicateFactory<LaterRoutePredicateFactory.Config> {

		LaterRoutePredicateFactory() {
			super(Config.class);
		}

		@Override
		public List<String> shortcutFieldOrder() {
			return List.of("millis");
		}

		@Override
		public AsyncPredicate<ServerWebExchange> applyAsync(Config config) {
			return (exchange) -> Mono.delay(Duration.ofMillis(config.getMillis())).thenReturn(true);
		}

		@Override
		public Predicate<ServerWebExchange> apply(Config config) {
			return (exchange) -> true;
		}

		public static class Config {

			private int millis = 1;

			public int getMillis() {
				return this.millis;
			}

			public void setMillis(int millis) {
				this.millis = millis;
			}

		}

	}

}
