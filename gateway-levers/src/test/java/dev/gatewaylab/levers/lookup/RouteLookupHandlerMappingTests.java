package dev.gatewaylab.levers.lookup;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.Fuseable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.webflux.autoconfigure.WebFluxProperties;
import org.springframework.cloud.gateway.config.GlobalCorsProperties;
import org.springframework.cloud.gateway.event.RefreshRoutesResultEvent;
import org.springframework.cloud.gateway.handler.AsyncPredicate;
import org.springframework.cloud.gateway.handler.FilteringWebHandler;
import org.springframework.cloud.gateway.handler.predicate.PathRoutePredicateFactory;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.GATEWAY_HANDLER_MAPPER_ATTR;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.GATEWAY_PREDICATE_ROUTE_ATTR;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.GATEWAY_REACTOR_CONTEXT_ATTR;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR;

/**
 * The gateway's route lookup keeps the framework's contract: order, first match,
 * attributes, errors, refreshes.
 */
class RouteLookupHandlerMappingTests {

	private final List<Route> routes = new CopyOnWriteArrayList<>();

	/**
	 * Route ids in the order their predicates were asked, with the predicate-route
	 * attribute seen at that time.
	 */
	private final List<String> asked = new CopyOnWriteArrayList<>();

	private final FilteringWebHandler webHandler = new FilteringWebHandler(List.of(), true);

	private final RouteLookupHandlerMapping mapping = new RouteLookupHandlerMapping(this.webHandler,
			() -> Flux.defer(() -> Flux.fromIterable(new ArrayList<>(this.routes))), new GlobalCorsProperties(),
			new MockEnvironment());

	private Route route(String id, int order, Function<ServerWebExchange, Publisher<Boolean>> answer) {
		AsyncPredicate<ServerWebExchange> predicate = (exchange) -> {
			this.asked.add(id + "@" + exchange.getAttribute(GATEWAY_PREDICATE_ROUTE_ATTR));
			return answer.apply(exchange);
		};
		return Route.async().id(id).uri("http://127.0.0.1:1").order(order).asyncPredicate(predicate).build();
	}

	private static Function<ServerWebExchange, Publisher<Boolean>> path(String prefix) {
		return (exchange) -> Mono.just(exchange.getRequest().getPath().value().startsWith(prefix));
	}

	private MockServerWebExchange exchange(String path) {
		return MockServerWebExchange.from(MockServerHttpRequest.get(path));
	}

	private Route lookup(ServerWebExchange exchange) {
		Object handler = this.mapping.getHandler(exchange).block(Duration.ofSeconds(5));
		if (handler == null) {
			return null;
		}
		assertThat(handler).isSameAs(this.webHandler);
		return exchange.getAttribute(GATEWAY_ROUTE_ATTR);
	}

	private void refreshed() {
		this.mapping.onApplicationEvent(new RefreshRoutesResultEvent(this));
	}

	@Test
	void takesTheFirstMatchingRouteInOrderAndAsksNoFurther() {
		this.routes.addAll(List.of(route("a", 1, path("/a")), route("b", 2, path("/b")), route("c", 3, path("/"))));
		refreshed();
		MockServerWebExchange exchange = exchange("/b/1");
		assertThat(lookup(exchange).getId()).isEqualTo("b");
		assertThat(this.asked).containsExactly("a@a", "b@b");
		assertThat(exchange.getAttributes()).doesNotContainKey(GATEWAY_PREDICATE_ROUTE_ATTR);
	}

	@Test
	void aPathPredicateAnswersSynchronouslySoOurRoutesTakeTheLoop() {
		PathRoutePredicateFactory.Config config = new PathRoutePredicateFactory.Config();
		config.setPatterns(List.of("/api/studies/**"));
		Publisher<Boolean> answer = new PathRoutePredicateFactory(new WebFluxProperties()).applyAsync(config)
			.apply(exchange("/api/studies/1"));
		assertThat(answer).isInstanceOf(Fuseable.ScalarCallable.class);
		assertThat(Mono.from(answer).block()).isTrue();
	}

	@Test
	void noMatchIsNoHandler() {
		this.routes.add(route("a", 1, path("/a")));
		refreshed();
		assertThat(lookup(exchange("/z"))).isNull();
	}

	/** A route whose predicate throws, then route "b" matching every path. */
	private void brokenThenCatchAll() {
		this.routes.add(route("broken", 1, (exchange) -> {
			throw new IllegalStateException("predicate bug");
		}));
		this.routes.add(route("b", 2, path("/")));
		refreshed();
	}

	@Test
	void aPredicateThatThrowsIsNoMatchAndTheNextRouteIsAsked() {
		brokenThenCatchAll();
		assertThat(lookup(exchange("/x")).getId()).isEqualTo("b");
	}

	@Test
	void anAsynchronousPredicateIsWaitedForAndTheLookupGoesOnAfterIt() {
		this.routes.add(route("slow-no", 1, (exchange) -> Mono.delay(Duration.ofMillis(20)).thenReturn(false)));
		this.routes.add(route("empty", 2, (exchange) -> Mono.empty()));
		this.routes.add(route("slow-yes", 3, (exchange) -> Mono.delay(Duration.ofMillis(20)).thenReturn(true)));
		this.routes.add(route("last", 4, path("/")));
		refreshed();
		assertThat(lookup(exchange("/x")).getId()).isEqualTo("slow-yes");
		assertThat(this.asked).containsExactly("slow-no@slow-no", "empty@empty", "slow-yes@slow-yes");
	}

	@Test
	void anAsynchronousPredicateThatFailsFailsTheLookupAsTheFrameworksDoes() {
		this.routes.add(route("failing", 1, (exchange) -> Mono.error(new IllegalStateException("backend down"))));
		this.routes.add(route("b", 2, path("/")));
		refreshed();
		assertThat(this.mapping.getHandler(exchange("/x"))
			.onErrorReturn(IllegalStateException.class, "failed")
			.block(Duration.ofSeconds(5))).isEqualTo("failed");
	}

	@Test
	void beforeTheFirstRefreshTheFrameworksLookupAnswers() {
		this.routes.add(route("a", 1, path("/")));
		assertThat(this.mapping.routes()).isNull();
		assertThat(lookup(exchange("/x")).getId()).isEqualTo("a");
	}

	@Test
	void aRefreshReplacesTheRoutesAndAFailedOneKeepsThem() {
		this.routes.add(route("old", 1, path("/")));
		refreshed();
		this.routes.clear();
		this.routes.add(route("new", 1, path("/")));
		this.mapping
			.onApplicationEvent(new RefreshRoutesResultEvent(this, new IllegalStateException("bad definition")));
		assertThat(lookup(exchange("/x")).getId()).isEqualTo("old");
		refreshed();
		assertThat(lookup(exchange("/x")).getId()).isEqualTo("new");
	}

	@Test
	void aRouteKnownAtOnceLeavesTheExchangeAsTheDispatchersLookupDoes() {
		this.routes.addAll(List.of(route("a", 1, path("/a")), route("b", 2, path("/b"))));
		refreshed();
		MockServerWebExchange now = exchange("/b/1");
		assertThat(this.mapping.handlerNow(now)).isSameAs(this.webHandler);
		MockServerWebExchange dispatched = exchange("/b/1");
		assertThat(lookup(dispatched).getId()).isEqualTo("b");
		// RouteDispatchWebFilter puts the Reactor context, as the mapping's getHandler
		// does
		assertThat(dispatched.getAttributes().remove(GATEWAY_REACTOR_CONTEXT_ATTR)).isNotNull();
		// each exchange has its own log id
		assertThat(now.getAttributes().keySet()).isEqualTo(dispatched.getAttributes().keySet());
		for (String name : List.of(GATEWAY_ROUTE_ATTR, GATEWAY_HANDLER_MAPPER_ATTR,
				HandlerMapping.API_VERSION_ATTRIBUTE)) {
			assertThat(now.getAttributes().get(name)).as(name).isSameAs(dispatched.getAttributes().get(name));
		}
	}

	@Test
	void noRouteKnownAtOnceLeavesTheRequestToTheDispatcher() {
		this.routes.add(route("a", 1, path("/a")));
		assertThat(this.mapping.handlerNow(exchange("/a"))).as("before the first refresh").isNull();
		refreshed();
		MockServerWebExchange unmatched = exchange("/z");
		assertThat(this.mapping.handlerNow(unmatched)).as("no match").isNull();
		assertThat(unmatched.getAttributes()).doesNotContainKeys(GATEWAY_PREDICATE_ROUTE_ATTR, GATEWAY_ROUTE_ATTR);
		assertThat(this.mapping.handlerNow(MockServerWebExchange.from(MockServerHttpRequest.options("/a")
			.header(HttpHeaders.ORIGIN, "https://example.org")
			.header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, "GET")))).as("a CORS pre-flight").isNull();
	}

	@Test
	void aPredicateThatAnswersLaterIsAskedOnceAndTheDispatchersLookupGoesOnFromIt() {
		this.routes.add(route("slow", 1, (exchange) -> Mono.delay(Duration.ofMillis(20)).thenReturn(false)));
		this.routes.add(route("b", 2, path("/")));
		refreshed();
		MockServerWebExchange exchange = exchange("/x");
		assertThat(this.mapping.handlerNow(exchange)).isNull();
		assertThat(this.asked).containsExactly("slow@slow");
		assertThat(lookup(exchange).getId()).isEqualTo("b");
		assertThat(this.asked).containsExactly("slow@slow", "b@b");
	}

	@Test
	void aPredicateThatThrowsIsNoMatchWhenTheRouteIsKnownAtOnceToo() {
		brokenThenCatchAll();
		MockServerWebExchange exchange = exchange("/x");
		assertThat(this.mapping.handlerNow(exchange)).isSameAs(this.webHandler);
		assertThat(exchange.<Route>getAttribute(GATEWAY_ROUTE_ATTR).getId()).isEqualTo("b");
	}

	@Test
	void theFrameworksCombinedPathPredicateIsKnownAtOnce() {
		PathRoutePredicateFactory.Config config = new PathRoutePredicateFactory.Config();
		config.setPatterns(List.of("/api/studies/**"));
		// RouteDefinitionRouteLocator reduces a route's predicates onto a leading "true"
		AsyncPredicate<ServerWebExchange> combined = AsyncPredicate.<ServerWebExchange>from((exchange) -> true)
			.and(new PathRoutePredicateFactory(new WebFluxProperties()).applyAsync(config));
		this.routes.add(Route.async().id("studies").uri("http://127.0.0.1:1").asyncPredicate(combined).build());
		refreshed();
		assertThat(this.mapping.handlerNow(exchange("/api/studies/1"))).isSameAs(this.webHandler);
		assertThat(this.mapping.handlerNow(exchange("/login"))).isNull();
	}

	@Test
	void aCorsConfigurationLeavesEveryRequestToTheDispatcher() {
		GlobalCorsProperties cors = new GlobalCorsProperties();
		cors.getCorsConfigurations().put("/**", new CorsConfiguration().applyPermitDefaultValues());
		RouteLookupHandlerMapping withCors = new RouteLookupHandlerMapping(this.webHandler,
				() -> Flux.fromIterable(this.routes), cors, new MockEnvironment());
		this.routes.add(route("a", 1, path("/")));
		withCors.onApplicationEvent(new RefreshRoutesResultEvent(this));
		assertThat(withCors.routes()).hasSize(1);
		assertThat(withCors.handlerNow(exchange("/x"))).isNull();
	}

}
