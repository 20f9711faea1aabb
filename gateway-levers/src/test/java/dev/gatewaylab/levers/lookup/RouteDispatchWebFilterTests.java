package dev.gatewaylab.levers.lookup;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.config.GlobalCorsProperties;
import org.springframework.cloud.gateway.event.RefreshRoutesResultEvent;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.handler.FilteringWebHandler;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.function.server.support.RouterFunctionMapping;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.server.WebFilterChain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.GATEWAY_REACTOR_CONTEXT_ATTR;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR;

/**
 * Which requests skip WebFlux's dispatcher: those whose route the mapping knows at once,
 * in the gateway's own context, when the routes are the dispatcher's first mapping.
 */
class RouteDispatchWebFilterTests {

	/** What went where: "chain" (on to the dispatcher) or "route:<id>". */
	private final List<String> seen = new CopyOnWriteArrayList<>();

	private final GlobalFilter recorder = (exchange, chain) -> {
		Route route = exchange.getRequiredAttribute(GATEWAY_ROUTE_ATTR);
		this.seen.add("route:" + route.getId());
		assertThat(exchange.getAttributes()).containsKey(GATEWAY_REACTOR_CONTEXT_ATTR);
		return Mono.empty();
	};

	private final Route route = Route.async()
		.id("studies")
		.uri("http://127.0.0.1:1")
		.order(0)
		.asyncPredicate((exchange) -> Mono.just(exchange.getRequest().getPath().value().startsWith("/api")))
		.build();

	private final RouteLookupHandlerMapping mapping = new RouteLookupHandlerMapping(
			new FilteringWebHandler(List.of(this.recorder), true), () -> Flux.just(this.route),
			new GlobalCorsProperties(), new MockEnvironment());

	private final WebFilterChain chain = (exchange) -> {
		this.seen.add("chain");
		return Mono.empty();
	};

	RouteDispatchWebFilterTests() {
		this.mapping.setOrder(-2);
		this.mapping.onApplicationEvent(new RefreshRoutesResultEvent(this));
	}

	private static GenericApplicationContext context(HandlerMapping... mappings) {
		GenericApplicationContext context = new GenericApplicationContext();
		for (int i = 0; i < mappings.length; i++) {
			context.getBeanFactory().registerSingleton("mapping" + i, mappings[i]);
		}
		context.registerBean("webHandler", DispatcherHandler.class, () -> new DispatcherHandler(context));
		context.refresh();
		return context;
	}

	private void send(RouteDispatchWebFilter filter, String path, GenericApplicationContext servedBy) {
		MockServerWebExchange exchange = MockServerWebExchange.builder(MockServerHttpRequest.get(path))
			.applicationContext(servedBy)
			.build();
		filter.filter(exchange, this.chain).block(Duration.ofSeconds(5));
	}

	private RouteDispatchWebFilter filter(GenericApplicationContext context) {
		return new RouteDispatchWebFilter(this.mapping, context, context.getBeanProvider(DispatcherHandler.class));
	}

	@Test
	void aRouteKnownAtOnceGoesToTheRoutesFilterChainAndAnyOtherRequestToTheDispatcher() {
		GenericApplicationContext context = context(this.mapping, new RouterFunctionMapping());
		RouteDispatchWebFilter filter = filter(context);
		send(filter, "/api/studies/1", context);
		send(filter, "/login", context);
		assertThat(this.seen).containsExactly("route:studies", "chain");
		assertThat(filter.getOrder()).isEqualTo(Ordered.LOWEST_PRECEDENCE);
	}

	@Test
	void aRequestServedByAnotherContextGoesToItsDispatcher() {
		GenericApplicationContext context = context(this.mapping);
		GenericApplicationContext management = new GenericApplicationContext();
		management.setParent(context);
		management.refresh();
		send(filter(context), "/api/studies/1", management);
		assertThat(this.seen).containsExactly("chain");
	}

	@Test
	void aHandlerMappingOrderedBeforeTheRoutesKeepsEveryRequestForTheDispatcher() {
		RouterFunctionMapping first = new RouterFunctionMapping();
		first.setOrder(-10);
		GenericApplicationContext context = context(this.mapping, first);
		send(filter(context), "/api/studies/1", context);
		assertThat(this.seen).containsExactly("chain");
	}

	@Test
	void anEmptyHandlerMappingOrderedBeforeTheRoutesIsPassedOver() {
		RequestMappingHandlerMapping empty = new RequestMappingHandlerMapping();
		empty.setOrder(-100);
		GenericApplicationContext context = context(this.mapping, empty);
		send(filter(context), "/api/studies/1", context);
		assertThat(this.seen).containsExactly("route:studies");
	}

}
