package dev.gatewaylab.gateway.proxy;

import java.util.List;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.Fuseable;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.config.GlobalCorsProperties;
import org.springframework.cloud.gateway.event.RefreshRoutesResultEvent;
import org.springframework.cloud.gateway.handler.FilteringWebHandler;
import org.springframework.cloud.gateway.handler.RoutePredicateHandlerMapping;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;
import org.springframework.web.server.ServerWebExchange;

import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.GATEWAY_PREDICATE_ROUTE_ATTR;

/**
 * Spring Cloud Gateway's {@link RoutePredicateHandlerMapping} with the route lookup done
 * in a loop where it can be. The framework's lookup is
 * {@code routeLocator.getRoutes().filterWhen(predicate).next()} for every request: the
 * cached routes replayed from materialized signals, a {@code filterWhen} per request, and
 * — once the first route matches — every route not yet tested handed to
 * {@code Operators.onDiscard}, which looks a hook up in the Reactor {@code Context} by
 * walking the whole operator chain (2–4 % of the gateway's CPU samples,
 * docs/gateway-cost.md).
 * <p>
 * Here the routes are a list, taken from the route locator after each successful refresh
 * ({@link RefreshRoutesResultEvent}), and tested in order with the same contract:
 * {@code GATEWAY_PREDICATE_ROUTE_ATTR} set to the route under test, a predicate that
 * throws counts as "no match" (logged), the first match wins and goes through
 * {@link #validateRoute}. A predicate whose answer is already known ({@code Mono.just}:
 * every predicate built from a plain {@code Predicate}, such as {@code Path}) is read
 * synchronously; any other predicate is subscribed to and the lookup continues reactively
 * from there. Before the first refresh the framework's lookup runs.
 * {@code GATEWAY_FRAMEWORK_ROUTE_LOOKUP=true} puts the framework's handler mapping back.
 */
class RouteLookupHandlerMapping extends RoutePredicateHandlerMapping
		implements ApplicationListener<RefreshRoutesResultEvent> {

	private final RouteLocator routeLocator;

	private volatile @Nullable List<Route> routes;

	RouteLookupHandlerMapping(FilteringWebHandler webHandler, RouteLocator routeLocator,
			GlobalCorsProperties globalCorsProperties, Environment environment) {
		super(webHandler, routeLocator, globalCorsProperties, environment);
		this.routeLocator = routeLocator;
	}

	@Override
	public void onApplicationEvent(RefreshRoutesResultEvent event) {
		if (event.isSuccess()) {
			// The caching locator replays its new list synchronously; a failed refresh
			// keeps the routes in use, as the
			// framework does.
			this.routeLocator.getRoutes()
				.collectList()
				.subscribe((list) -> this.routes = List.copyOf(list), (ex) -> this.logger
					.error("Could not take the refreshed routes; keeping the previous ones", ex));
		}
	}

	@Nullable List<Route> routes() {
		return this.routes;
	}

	@Override
	protected Mono<Route> lookupRoute(ServerWebExchange exchange) {
		List<Route> current = this.routes;
		return (current != null) ? lookupFrom(current, 0, exchange) : super.lookupRoute(exchange);
	}

	private Mono<Route> lookupFrom(List<Route> current, int start, ServerWebExchange exchange) {
		for (int i = start; i < current.size(); i++) {
			Route route = current.get(i);
			exchange.getAttributes().put(GATEWAY_PREDICATE_ROUTE_ATTR, route.getId());
			Publisher<Boolean> answer;
			try {
				answer = route.getPredicate().apply(exchange);
			}
			catch (Exception ex) {
				this.logger.error("Error applying predicate for route: " + route.getId(), ex);
				continue;
			}
			if (answer instanceof Fuseable.ScalarCallable<?> scalar) {
				Object known;
				try {
					known = scalar.call();
				}
				catch (Exception ex) {
					return Mono.error(ex);
				}
				if (Boolean.TRUE.equals(known)) {
					return matched(route, exchange);
				}
				continue;
			}
			int next = i + 1;
			// An empty answer is "no match", as in filterWhen.
			return Mono.from(answer)
				.defaultIfEmpty(false)
				.flatMap((match) -> match ? matched(route, exchange) : lookupFrom(current, next, exchange));
		}
		return Mono.empty();
	}

	private Mono<Route> matched(Route route, ServerWebExchange exchange) {
		if (this.logger.isDebugEnabled()) {
			this.logger.debug("Route matched: " + route.getId());
		}
		validateRoute(route, exchange);
		return Mono.just(route);
	}

}
