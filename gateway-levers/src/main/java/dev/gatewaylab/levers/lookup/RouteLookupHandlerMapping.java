package dev.gatewaylab.levers.lookup;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.config.GlobalCorsProperties;
import org.springframework.cloud.gateway.event.RefreshRoutesResultEvent;
import org.springframework.cloud.gateway.handler.FilteringWebHandler;
import org.springframework.cloud.gateway.handler.RoutePredicateHandlerMapping;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;
import org.springframework.web.accept.ApiVersionHolder;
import org.springframework.web.cors.reactive.CorsUtils;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;

import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.GATEWAY_HANDLER_MAPPER_ATTR;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.GATEWAY_PREDICATE_ROUTE_ATTR;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR;

/**
 * The route-lookup lever: Spring Cloud Gateway's {@link RoutePredicateHandlerMapping}
 * with the route lookup done in a loop where it can be. The framework's lookup is
 * {@code routeLocator.getRoutes().filterWhen(predicate).next()} for every request: the
 * cached routes replayed from materialized signals, a {@code filterWhen} per request, and
 * — once the first route matches — every route not yet tested handed to
 * {@code Operators.onDiscard}, which looks a hook up in the Reactor {@code Context} by
 * walking the whole operator chain.
 * <p>
 * Here the routes are a list, taken from the route locator after each successful refresh
 * ({@link RefreshRoutesResultEvent}), and tested in order with the same contract:
 * {@code GATEWAY_PREDICATE_ROUTE_ATTR} set to the route under test, a predicate that
 * throws counts as "no match" (logged), the first match wins and goes through
 * {@link #validateRoute}. A predicate that answers while it is subscribed to (every
 * predicate built from a plain {@code Predicate}, such as {@code Path}, and their
 * {@code and}) is read on the spot; the lookup goes on reactively only after a predicate
 * that answers later. Before the first refresh the framework's lookup runs.
 */
public class RouteLookupHandlerMapping extends RoutePredicateHandlerMapping
		implements ApplicationListener<RefreshRoutesResultEvent> {

	private static final String PENDING_ATTR = RouteLookupHandlerMapping.class.getName() + ".pending";

	private final FilteringWebHandler webHandler;

	private final RouteLocator routeLocator;

	private volatile @Nullable List<Route> routes;

	public RouteLookupHandlerMapping(FilteringWebHandler webHandler, RouteLocator routeLocator,
			GlobalCorsProperties globalCorsProperties, Environment environment) {
		super(webHandler, routeLocator, globalCorsProperties, environment);
		this.webHandler = webHandler;
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

	/**
	 * The gateway's web handler for this request if its route is known at once, else
	 * {@code null} and the request goes to WebFlux's dispatcher as usual
	 * ({@link RouteDispatchWebFilter}). Known at once: the routes have been taken, the
	 * request is not a CORS pre-flight, no CORS configuration or API versioning applies
	 * (they would need the dispatcher's handling of the answer), and every predicate up
	 * to the first match answered while it was asked, without error. The exchange then
	 * carries what {@link #getHandler} would have left on it: the handler-mapper name,
	 * the API version holder, the route, no predicate-route attribute. A predicate that
	 * answers later is left pending on the exchange, and the dispatcher's lookup goes on
	 * from it without asking it again.
	 */
	@Nullable FilteringWebHandler handlerNow(ServerWebExchange exchange) {
		List<Route> current = this.routes;
		if (current == null || getApiVersionStrategy() != null || hasCorsConfigurationSource(this.webHandler)
				|| CorsUtils.isPreFlightRequest(exchange.getRequest())) {
			return null;
		}
		Map<String, Object> attributes = exchange.getAttributes();
		Found found = scan(current, 0, exchange);
		if (found instanceof Matched matched) {
			attributes.put(HandlerMapping.API_VERSION_ATTRIBUTE, ApiVersionHolder.EMPTY);
			attributes.put(GATEWAY_HANDLER_MAPPER_ATTR, getSimpleName());
			attributes.remove(GATEWAY_PREDICATE_ROUTE_ATTR);
			attributes.put(GATEWAY_ROUTE_ATTR, matched.route());
			return this.webHandler;
		}
		if (found instanceof Pending pending) {
			attributes.put(PENDING_ATTR, pending);
		}
		else {
			attributes.remove(GATEWAY_PREDICATE_ROUTE_ATTR);
		}
		return null;
	}

	@Override
	protected Mono<Route> lookupRoute(ServerWebExchange exchange) {
		Object pending = exchange.getAttributes().remove(PENDING_ATTR);
		if (pending instanceof Pending from) {
			return answered(from, exchange);
		}
		List<Route> current = this.routes;
		return (current != null) ? lookupFrom(current, 0, exchange) : super.lookupRoute(exchange);
	}

	private Mono<Route> lookupFrom(List<Route> current, int start, ServerWebExchange exchange) {
		Found found = scan(current, start, exchange);
		if (found instanceof Matched matched) {
			return Mono.just(matched.route());
		}
		return (found instanceof Pending pending) ? answered(pending, exchange) : Mono.empty();
	}

	/**
	 * Asks the routes from {@code start} in order, as long as each answers while it is
	 * asked: the first match ({@link Matched}, validated), the first predicate that
	 * answers later or fails ({@link Pending}), or {@code null} when none matched.
	 */
	private @Nullable Found scan(List<Route> current, int start, ServerWebExchange exchange) {
		for (int i = start; i < current.size(); i++) {
			Route route = current.get(i);
			CompletableFuture<Boolean> answer = ask(route, exchange);
			if (answer == null) {
				continue;
			}
			if (!answer.isDone() || answer.isCompletedExceptionally()) {
				return new Pending(current, i, answer);
			}
			if (Boolean.TRUE.equals(answer.getNow(null))) {
				return new Matched(matched(route, exchange));
			}
		}
		return null;
	}

	/**
	 * The lookup going on once the pending predicate has answered: an empty answer is "no
	 * match", as in {@code filterWhen}; an error fails the lookup, as the framework's
	 * does.
	 */
	private Mono<Route> answered(Pending pending, ServerWebExchange exchange) {
		Route route = pending.routes().get(pending.index());
		exchange.getAttributes().put(GATEWAY_PREDICATE_ROUTE_ATTR, route.getId());
		return Mono.fromFuture(pending.answer())
			.defaultIfEmpty(false)
			.flatMap((match) -> match ? Mono.just(matched(route, exchange))
					: lookupFrom(pending.routes(), pending.index() + 1, exchange));
	}

	/**
	 * Asks the route's predicate, with the predicate-route attribute set: an answer
	 * complete on return when the predicate answered while it was subscribed to (a
	 * {@code Path} predicate, alone or combined with {@code and}: the framework combines
	 * every route's predicates onto a leading {@code true}), else one that completes
	 * later; {@code null} when the predicate threw, which counts as "no match" (logged).
	 */
	private @Nullable CompletableFuture<Boolean> ask(Route route, ServerWebExchange exchange) {
		exchange.getAttributes().put(GATEWAY_PREDICATE_ROUTE_ATTR, route.getId());
		Publisher<Boolean> answer;
		try {
			answer = route.getPredicate().apply(exchange);
		}
		catch (Exception ex) {
			this.logger.error("Error applying predicate for route: " + route.getId(), ex);
			return null;
		}
		return Mono.from(answer).toFuture();
	}

	private Route matched(Route route, ServerWebExchange exchange) {
		if (this.logger.isDebugEnabled()) {
			this.logger.debug("Route matched: " + route.getId());
		}
		validateRoute(route, exchange);
		return route;
	}

	/** What a {@link #scan} found. */
	private sealed interface Found permits Matched, Pending {

	}

	/** The first route whose predicate matched at once. */
	private record Matched(Route route) implements Found {
	}

	/**
	 * Route {@code index}'s predicate, which had not answered (or failed) when it was
	 * asked.
	 */
	private record Pending(List<Route> routes, int index, CompletableFuture<Boolean> answer) implements Found {
	}

}
