package dev.gatewaylab.levers.headers;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveForwardedHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveXForwardedHeadersFilter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.support.Netty4HeadersAdapter;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lean forwarded-header filters answer what Spring Cloud Gateway's do, and pass the
 * headers on as they are when there is nothing to drop.
 */
class ForwardedHeadersTests {

	private final ServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/"));

	@Test
	void dropTheSameHeadersAsTheFrameworksFilters() {
		HttpHeaders input = headers("Host", "example.org", "Forwarded", "for=203.0.113.9", "x-FORWARDED-host",
				"evil.example", "X-Forwarded-For", "203.0.113.9", "X-Forwardedness", "kept", "Accept", "a/b", "Accept",
				"c/d");
		assertSameAsFramework(input);
		assertThat(asMap(chain(lean(), input)).keySet()).containsExactly("host", "x-forwardedness", "accept");
	}

	@Test
	void eachDropsOnlyItsOwnHeader() {
		assertSameAsFramework(headers("Forwarded", "for=203.0.113.9", "Accept", "a/b"));
		assertSameAsFramework(headers("X-Forwarded-Proto", "https", "Accept", "a/b"));
		assertSameAsFramework(nettyHeaders("FORWARDED", "for=1.2.3.4", "X-Forwarded-Port", "443", "Via", "1.1 p"));
	}

	@Test
	void passTheHeadersOnAsTheyAreWhenNothingIsDropped() {
		HttpHeaders input = HttpHeaders.readOnlyHttpHeaders(headers("Host", "example.org", "X-Forwardedness", "kept"));
		assertThat(new ForwardedHeaders.LeanRemoveForwarded().filter(input, this.exchange)).isSameAs(input);
		assertThat(new ForwardedHeaders.LeanRemoveXForwarded().filter(input, this.exchange)).isSameAs(input);
		HttpHeaders netty = nettyHeaders("Accept", "a/b");
		assertThat(chain(lean(), netty)).isSameAs(netty);
	}

	@Test
	void readTheRequestsOwnHeadersToo() {
		MockServerWebExchange withHeader = MockServerWebExchange
			.from(MockServerHttpRequest.get("/").header("X-Forwarded-Host", "evil.example").header("Accept", "a/b"));
		HttpHeaders own = withHeader.getRequest().getHeaders();
		assertThat(ForwardedHeaders.hasXForwarded(own, withHeader)).isTrue();
		HttpHeaders filtered = new ForwardedHeaders.LeanRemoveXForwarded().filter(own, withHeader);
		assertThat(filtered.containsHeader("X-Forwarded-Host")).isFalse();
		assertThat(filtered.getFirst("Accept")).isEqualTo("a/b");
		MockServerWebExchange without = MockServerWebExchange
			.from(MockServerHttpRequest.get("/").header("Accept", "a/b"));
		assertThat(ForwardedHeaders.hasXForwarded(without.getRequest().getHeaders(), without)).isFalse();
	}

	@Test
	void replaceTheFrameworksBeansAndNothingElse() {
		BeanPostProcessor swap = ForwardedHeaders.replacingFrameworkFilters();
		assertThat(swap.postProcessAfterInitialization(new RemoveForwardedHeadersFilter(), "a"))
			.isInstanceOf(ForwardedHeaders.LeanRemoveForwarded.class);
		assertThat(swap.postProcessAfterInitialization(new RemoveXForwardedHeadersFilter(), "b"))
			.isInstanceOf(ForwardedHeaders.LeanRemoveXForwarded.class);
		Object other = new Object();
		assertThat(swap.postProcessAfterInitialization(other, "other")).isSameAs(other);
	}

	private void assertSameAsFramework(HttpHeaders input) {
		List<HttpHeadersFilter> framework = List.of(new RemoveForwardedHeadersFilter(),
				new RemoveXForwardedHeadersFilter());
		assertThat(asMap(chain(lean(), input))).isEqualTo(asMap(chain(framework, input)));
	}

	private static List<HttpHeadersFilter> lean() {
		return List.of(new ForwardedHeaders.LeanRemoveForwarded(), new ForwardedHeaders.LeanRemoveXForwarded());
	}

	private HttpHeaders chain(List<HttpHeadersFilter> filters, HttpHeaders input) {
		HttpHeaders headers = input;
		for (HttpHeadersFilter filter : filters) {
			headers = filter.filter(headers, this.exchange);
		}
		return headers;
	}

	private static HttpHeaders headers(String... namesAndValues) {
		HttpHeaders headers = new HttpHeaders();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			headers.add(namesAndValues[i], namesAndValues[i + 1]);
		}
		return headers;
	}

	private static HttpHeaders nettyHeaders(String... namesAndValues) {
		HttpHeaders headers = new HttpHeaders(new Netty4HeadersAdapter(new DefaultHttpHeaders()));
		for (int i = 0; i < namesAndValues.length; i += 2) {
			headers.add(namesAndValues[i], namesAndValues[i + 1]);
		}
		return headers;
	}

	private static Map<String, List<String>> asMap(HttpHeaders headers) {
		Map<String, List<String>> map = new LinkedHashMap<>();
		headers.forEach((name, values) -> map.put(name.toLowerCase(Locale.ROOT), List.copyOf(values)));
		return map;
	}

}
