package dev.gatewaylab.levers.headers;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveHopByHopHeadersFilter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.support.Netty4HeadersAdapter;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lean hop-by-hop filter answers exactly what Spring Cloud Gateway's does, and
 * replaces it with the same settings.
 */
class HopByHopHeadersTests {

	private final ServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/"));

	@Test
	void removesTheSameHeadersAsTheFrameworksFilterAndKeepsTheRestInOrder() {
		HttpHeaders input = new HttpHeaders();
		input.add("Host", "example.org");
		input.add("connection", "Keep-Alive, X-Drop-Me");
		input.add("Keep-Alive", "timeout=5");
		input.add("TE", "trailers");
		input.add("Transfer-Encoding", "chunked");
		input.add("Proxy-Authorization", "Basic x");
		input.add("Upgrade", "h2c");
		input.add("x-drop-me", "1");
		input.add("Accept", "a/b");
		input.add("Accept", "c/d");
		input.add("X-Request-Id", "abc");
		assertSameAsFramework(input);
		assertThat(filter(new HopByHopHeaders.LeanFilter(), input).headerNames()).containsExactly("Host", "Accept",
				"X-Request-Id");
	}

	@Test
	void withoutAConnectionHeaderOnlyTheListedNamesGo() {
		HttpHeaders netty = new HttpHeaders(new Netty4HeadersAdapter(new DefaultHttpHeaders()));
		netty.add("Content-Type", "application/json");
		netty.add("Content-Length", "8");
		netty.add("KEEP-ALIVE", "timeout=60");
		netty.add("Trailer", "X-Checksum");
		assertSameAsFramework(netty);
		HttpHeaders filtered = filter(new HopByHopHeaders.LeanFilter(), netty);
		assertThat(filtered.headerNames()).containsExactly("Content-Type", "Content-Length");
	}

	@Test
	void theCopyIsWritableAndLeavesTheInputAlone() {
		HttpHeaders input = HttpHeaders.readOnlyHttpHeaders(new HttpHeaders());
		HttpHeaders filtered = filter(new HopByHopHeaders.LeanFilter(), input);
		filtered.set("X-Forwarded-For", "127.0.0.1");
		filtered.add("x-forwarded-for", "10.0.0.1");
		assertThat(filtered.get("X-FORWARDED-FOR")).containsExactly("127.0.0.1", "10.0.0.1");
		assertThat(input.isEmpty()).isTrue();
	}

	@Test
	void replacesTheFrameworksBeanWithItsHeadersAndOrder() {
		RemoveHopByHopHeadersFilter framework = new RemoveHopByHopHeadersFilter();
		framework.setHeaders(Set.of("Connection", "X-Internal"));
		framework.setOrder(42);
		BeanPostProcessor swap = HopByHopHeaders.replacingFrameworkFilter();
		Object replaced = swap.postProcessAfterInitialization(framework, "removeHopByHopHeadersFilter");
		assertThat(replaced).isInstanceOf(HopByHopHeaders.LeanFilter.class);
		RemoveHopByHopHeadersFilter lean = (RemoveHopByHopHeadersFilter) replaced;
		assertThat(lean.getOrder()).isEqualTo(42);
		assertThat(lean.getHeaders()).isEqualTo(framework.getHeaders());
		HttpHeaders input = new HttpHeaders();
		input.add("X-Internal", "1");
		input.add("Keep-Alive", "timeout=5");
		assertThat(filter(lean, input).headerNames()).containsExactly("Keep-Alive");
		Object other = new Object();
		assertThat(swap.postProcessAfterInitialization(other, "other")).isSameAs(other);
	}

	@Test
	void copiesAResponseInOnePassAsTheFilterAndAddAllDo() {
		DefaultHttpHeaders upstream = new DefaultHttpHeaders();
		upstream.add("Content-Type", "application/json");
		upstream.add("Connection", "keep-alive, X-Hop-Hint");
		upstream.add("X-Hop-Hint", "1");
		upstream.add("Set-Cookie", "one=1");
		upstream.add("Keep-Alive", "timeout=60");
		upstream.add("set-cookie", "two=2");
		upstream.add("Content-Length", "8");
		HttpHeaders viaFilter = new HttpHeaders();
		viaFilter.add("X-Request-Id", "abc");
		viaFilter.addAll(
				filter(new RemoveHopByHopHeadersFilter(), new HttpHeaders(new Netty4HeadersAdapter(upstream.copy()))));
		HttpHeaders onePass = new HttpHeaders();
		onePass.add("X-Request-Id", "abc");
		Set<String> names = new HopByHopHeaders.LeanFilter().copyResponseHeaders(upstream, onePass);
		assertThat(asMap(onePass)).isEqualTo(asMap(viaFilter));
		assertThat(onePass.get("Set-Cookie")).containsExactly("one=1", "two=2");
		// case-insensitive, as HttpHeaders.headerNames(): Set-Cookie and set-cookie are
		// one
		assertThat(names).hasSize(3);
		assertThat(List.of("Content-Type", "content-length", "SET-COOKIE")).allMatch(names::contains);
		assertThat(List.of("Connection", "X-Hop-Hint", "Keep-Alive")).noneMatch(names::contains);
	}

	private void assertSameAsFramework(HttpHeaders input) {
		assertThat(asMap(filter(new HopByHopHeaders.LeanFilter(), input)))
			.isEqualTo(asMap(filter(new RemoveHopByHopHeadersFilter(), input)));
	}

	private HttpHeaders filter(RemoveHopByHopHeadersFilter filter, HttpHeaders input) {
		return filter.filter(input, this.exchange);
	}

	private static Map<String, List<String>> asMap(HttpHeaders headers) {
		Map<String, List<String>> map = new LinkedHashMap<>();
		headers.forEach((name, values) -> map.put(name.toLowerCase(java.util.Locale.ROOT), List.copyOf(values)));
		return map;
	}

}
