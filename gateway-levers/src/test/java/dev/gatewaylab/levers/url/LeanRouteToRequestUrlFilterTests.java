package dev.gatewaylab.levers.url;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.filter.RouteToRequestUrlFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.GATEWAY_REQUEST_URL_ATTR;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.GATEWAY_SCHEME_PREFIX_ATTR;

/**
 * The request-url lever against Spring Cloud Gateway's {@link RouteToRequestUrlFilter} on
 * every combination of a corpus of request targets and route URIs: the same URL (and the
 * same scheme-prefix attribute) or the same error.
 */
class LeanRouteToRequestUrlFilterTests {

	private static final List<String> PATHS = List.of("/", "/api/studies/42", "/a/b/c/", "//double", "/a;b=c",
			"/~user/x", "/a+b", "/a:b@c", "/a%20b", "/a%2Fb", "/%E4%B8%AD", "/a(b)*c!$'", "/a/../b");

	private static final List<String> QUERIES = List.of("", "?x=1", "?x=1&y=2", "?x=1&x=2", "?x=1&y=2&x=3", "?x", "?x=",
			"?=v", "?x=1&&y=2", "?x=1&", "?a=b=c", "?q=%20", "?q=a+b", "?q=a%2Bb", "?q=a,b;c", "?q=a/b?c", "?x=1&y",
			"?");

	private static final List<String> ROUTES = List.of("http://localhost:8081", "http://127.0.0.1:8081/ignored",
			"https://upstream.example", "http://[::1]:8080", "lb://study-service", "http://user@host:80",
			"ws://localhost:9000", "HTTP://Host.Example:81");

	@Test
	void buildsWhatTheFrameworksFilterBuildsForEveryRequestAndRoute() {
		List<String> differences = new ArrayList<>();
		int fast = 0;
		for (String route : ROUTES) {
			for (String path : PATHS) {
				for (String query : QUERIES) {
					URI request = URI.create("http://gateway.example:8080" + path + query);
					String framework = outcome(new RouteToRequestUrlFilter(), request, route);
					String lean = outcome(new LeanRouteToRequestUrlFilter(), request, route);
					if (!framework.equals(lean)) {
						differences.add(request + " via " + route + ": framework " + framework + ", lever " + lean);
					}
					fast += (LeanRouteToRequestUrlFilter.merged(request, URI.create(route)) != null) ? 1 : 0;
				}
			}
		}
		assertThat(differences).isEmpty();
		assertThat(fast).as("requests the lever built itself").isGreaterThan(100);
	}

	@Test
	void theLabsRequestTakesTheLeversOwnPath() {
		assertThat(LeanRouteToRequestUrlFilter.merged(URI.create("http://127.0.0.1:8080/api/studies/42"),
				URI.create("http://localhost:8081")))
			.hasToString("http://localhost:8081/api/studies/42");
	}

	private static String outcome(GlobalFilter filter, URI request, String routeUri) {
		MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get(request.toString()));
		Route route = Route.async().id("r").uri(URI.create(routeUri)).predicate((e) -> true).build();
		exchange.getAttributes().put(GATEWAY_ROUTE_ATTR, route);
		GatewayFilterChain chain = (e) -> Mono.empty();
		try {
			filter.filter(exchange, chain).block();
		}
		catch (RuntimeException ex) {
			return "error " + ex.getClass().getSimpleName();
		}
		URI url = exchange.getAttribute(GATEWAY_REQUEST_URL_ATTR);
		return url + " prefix=" + exchange.getAttribute(GATEWAY_SCHEME_PREFIX_ATTR);
	}

}
