package dev.gatewaylab.levers.headers;

import java.util.Iterator;
import java.util.Map;

import io.netty.util.AsciiString;
import org.jspecify.annotations.Nullable;
import reactor.netty.http.server.HttpServerRequest;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.cloud.gateway.filter.headers.ForwardedHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveForwardedHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveXForwardedHeadersFilter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.server.ServerWebExchange;

/**
 * The forwarded headers lever: Spring Cloud Gateway's
 * {@link RemoveForwardedHeadersFilter} and {@link RemoveXForwardedHeadersFilter} — which
 * drop a client's {@code Forwarded} and {@code X-Forwarded-*} headers when no trusted
 * proxies are configured for the framework
 * ({@code spring.cloud.gateway.server.webflux.trusted-proxies} unset) — with the same
 * answer and no copy when there is nothing to drop. The framework's filters are the first
 * two request header filters, and each copies every request header into a new map on
 * every request, although a client rarely sends either header; here the headers are
 * looked at first and passed on unchanged when neither is there. The next filter (the
 * hop-by-hop filter) makes the one writable copy.
 */
public final class ForwardedHeaders {

	private static final String X_FORWARDED_PREFIX = "x-forwarded-";

	private ForwardedHeaders() {
	}

	/**
	 * Hands out the lean filters in place of the framework's two beans (which no property
	 * can turn off).
	 */
	public static BeanPostProcessor replacingFrameworkFilters() {
		return new BeanPostProcessor() {
			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
				if (bean.getClass() == RemoveForwardedHeadersFilter.class) {
					return new LeanRemoveForwarded();
				}
				if (bean.getClass() == RemoveXForwardedHeadersFilter.class) {
					return new LeanRemoveXForwarded();
				}
				return bean;
			}
		};
	}

	/** The lean {@code Forwarded} filter. */
	public static final class LeanRemoveForwarded extends RemoveForwardedHeadersFilter {

		@Override
		public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
			return input.containsHeader(ForwardedHeadersFilter.FORWARDED_HEADER) ? super.filter(input, exchange)
					: input;
		}

	}

	/** The lean {@code X-Forwarded-*} filter. */
	public static final class LeanRemoveXForwarded extends RemoveXForwardedHeadersFilter {

		@Override
		public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
			return hasXForwarded(input, exchange) ? super.filter(input, exchange) : input;
		}

	}

	/**
	 * Whether a header name starts with {@code X-Forwarded-} (any case). The request's
	 * own headers are read on Netty's header lines as they are; any other headers through
	 * their names.
	 */
	static boolean hasXForwarded(HttpHeaders input, ServerWebExchange exchange) {
		ServerHttpRequest request = exchange.getRequest();
		if (input == request.getHeaders() && nativeRequest(request) instanceof HttpServerRequest nativeRequest) {
			Iterator<Map.Entry<CharSequence, CharSequence>> lines = nativeRequest.requestHeaders()
				.iteratorCharSequence();
			while (lines.hasNext()) {
				if (isXForwarded(lines.next().getKey())) {
					return true;
				}
			}
			return false;
		}
		for (String name : input.headerNames()) {
			if (isXForwarded(name)) {
				return true;
			}
		}
		return false;
	}

	private static @Nullable Object nativeRequest(ServerHttpRequest request) {
		try {
			return ServerHttpRequestDecorator.getNativeRequest(request);
		}
		catch (IllegalArgumentException | IllegalStateException ex) {
			// a request of no known server (a test's mock request has none)
			return null;
		}
	}

	private static boolean isXForwarded(CharSequence name) {
		return AsciiString.regionMatches(name, true, 0, X_FORWARDED_PREFIX, 0, X_FORWARDED_PREFIX.length());
	}

}
