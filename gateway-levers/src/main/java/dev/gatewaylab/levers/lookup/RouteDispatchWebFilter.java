package dev.gatewaylab.levers.lookup;

import java.util.List;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.gateway.handler.FilteringWebHandler;
import org.springframework.context.ApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.handler.AbstractUrlHandlerMapping;
import org.springframework.web.reactive.result.method.AbstractHandlerMethodMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.GATEWAY_REACTOR_CONTEXT_ATTR;

/**
 * The dispatch lever, the last web filter: a request whose route is known at once goes
 * straight to the gateway's filter chain instead of through WebFlux's dispatcher, which
 * would find the same route with the same handler mapping but through a dozen more
 * Reactor operators per request ({@code concatMap} over the handler mappings,
 * {@code next}, {@code switchIfEmpty}, {@code onErrorResume}, two {@code flatMap}s, the
 * handler adapter's {@code then}, the mapping's {@code map}s) — operators every signal of
 * the request climbs, up and down. Any other request goes on to the dispatcher: no route,
 * a route whose predicate answers later, a CORS pre-flight or configuration, API
 * versioning, a handler mapping with handlers ordered before the routes, or the
 * management server (which shares this context's web filters but dispatches with its own
 * context). Needs the route-lookup lever's {@link RouteLookupHandlerMapping}.
 */
public final class RouteDispatchWebFilter implements WebFilter, Ordered {

	private final RouteLookupHandlerMapping mapping;

	private final ApplicationContext context;

	private final ObjectProvider<DispatcherHandler> dispatcher;

	/**
	 * Whether the routes' mapping is the dispatcher's first; decided at the first
	 * request.
	 */
	private volatile @Nullable Boolean routesFirst;

	public RouteDispatchWebFilter(RouteLookupHandlerMapping mapping, ApplicationContext context,
			ObjectProvider<DispatcherHandler> dispatcher) {
		this.mapping = mapping;
		this.context = context;
		this.dispatcher = dispatcher;
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (exchange.getApplicationContext() != this.context || !routesFirst()) {
			return chain.filter(exchange);
		}
		FilteringWebHandler handler = this.mapping.handlerNow(exchange);
		if (handler == null) {
			return chain.filter(exchange);
		}
		// As the framework's mapping does: route filters may read the request's Reactor
		// context from the exchange (the tracing header filter does).
		return Mono.deferContextual((context) -> {
			exchange.getAttributes().put(GATEWAY_REACTOR_CONTEXT_ATTR, context);
			return handler.handle(exchange);
		});
	}

	private boolean routesFirst() {
		Boolean first = this.routesFirst;
		if (first == null) {
			DispatcherHandler dispatcher = this.dispatcher.getIfAvailable();
			first = dispatcher != null && routesFirst(dispatcher.getHandlerMappings(), this.mapping);
			this.routesFirst = first;
		}
		return first;
	}

	/**
	 * Whether the dispatcher would ask the routes first: every handler mapping ordered
	 * before them holds nothing (Spring Boot's mapping for health groups on extra paths
	 * of the main server is there, empty unless such a path is configured).
	 */
	static boolean routesFirst(@Nullable List<HandlerMapping> mappings, HandlerMapping routes) {
		if (mappings != null) {
			for (HandlerMapping mapping : mappings) {
				if (mapping == routes) {
					return true;
				}
				boolean empty = (mapping instanceof AbstractHandlerMethodMapping<?> methods)
						? methods.getHandlerMethods().isEmpty()
						: (mapping instanceof AbstractUrlHandlerMapping urls) && urls.getHandlerMap().isEmpty();
				if (!empty) {
					return false;
				}
			}
		}
		return false;
	}

}
