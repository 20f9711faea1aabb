package dev.gatewaylab.gateway.proxy;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.timeout.ReadTimeoutException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientResponse;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.gateway.config.HttpClientProperties;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.filter.NettyRoutingFilter;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter.Type;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.RouteMetadataUtils;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.AbstractServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.support.Netty4HeadersAdapter;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;

import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.CLIENT_RESPONSE_ATTR;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.CLIENT_RESPONSE_CONN_ATTR;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.CLIENT_RESPONSE_HEADER_NAMES;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.GATEWAY_REQUEST_URL_ATTR;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.ORIGINAL_RESPONSE_CONTENT_TYPE_ATTR;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.PRESERVE_HOST_HEADER_ATTRIBUTE;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.isAlreadyRouted;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.setAlreadyRouted;

/**
 * Sends the request to the route's upstream — Spring Cloud Gateway's
 * {@link NettyRoutingFilter} with the same contract (the {@code HttpHeadersFilter} beans
 * on request and response, the exchange attributes other filters read, the route's
 * {@code response-timeout} metadata or the global one) and one difference that is
 * measured: the response timeout. The framework's filter runs {@code Flux.timeout} per
 * request, which schedules and cancels a task on Reactor's parallel scheduler — a lock
 * and a wake-up of another thread for every request. Here the timeout is the request's
 * own {@code responseTimeout} on Reactor Netty's client: a read timer on the connection's
 * event loop, on the thread that is already handling it. When it fires: 504 as before
 * (the connection is closed, which also ends the upstream's work on it).
 * <p>
 * The request headers are set on the outgoing request itself, once, instead of through
 * {@code HttpClient.headers(...)}, which copies the client's configuration once more per
 * request; the upstream's response headers are read through a view instead of being
 * copied into a new map first. {@code GATEWAY_FRAMEWORK_ROUTING=true} puts the
 * framework's two filters back.
 */
class UpstreamRoutingFilter implements GlobalFilter, Ordered {

	private final HttpClient httpClient;

	private final ObjectProvider<List<HttpHeadersFilter>> headersFiltersProvider;

	private final @Nullable Duration defaultResponseTimeout;

	private volatile @Nullable List<HttpHeadersFilter> headersFilters;

	UpstreamRoutingFilter(HttpClient httpClient, ObjectProvider<List<HttpHeadersFilter>> headersFilters,
			HttpClientProperties properties) {
		this.httpClient = httpClient;
		this.headersFiltersProvider = headersFilters;
		this.defaultResponseTimeout = properties.getResponseTimeout();
	}

	@Override
	public int getOrder() {
		return NettyRoutingFilter.ORDER;
	}

	private @Nullable List<HttpHeadersFilter> headersFilters() {
		List<HttpHeadersFilter> filters = this.headersFilters;
		if (filters == null) {
			filters = this.headersFiltersProvider.getIfAvailable();
			this.headersFilters = filters;
		}
		return filters;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		URI requestUrl = exchange.getRequiredAttribute(GATEWAY_REQUEST_URL_ATTR);
		String scheme = requestUrl.getScheme();
		if (isAlreadyRouted(exchange) || (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme))) {
			return chain.filter(exchange);
		}
		setAlreadyRouted(exchange);

		ServerHttpRequest request = exchange.getRequest();
		Route route = exchange.getRequiredAttribute(GATEWAY_ROUTE_ATTR);
		List<HttpHeadersFilter> filters = headersFilters();
		HttpHeaders filtered = HttpHeadersFilter.filterRequest(filters, exchange);
		// Reactor Netty keeps the Host it derived from the URL unless the route preserves
		// the client's.
		String preservedHost = exchange.getAttributeOrDefault(PRESERVE_HOST_HEADER_ATTRIBUTE, false)
				? request.getHeaders().getFirst(HttpHeaders.HOST) : null;
		Duration responseTimeout = responseTimeout(route);

		return this.httpClient.request(HttpMethod.valueOf(request.getMethod().name()))
			.uri(isAscii(requestUrl) ? requestUrl : URI.create(requestUrl.toASCIIString()))
			.send((clientRequest, out) -> {
				copyRequestHeaders(filtered, clientRequest.requestHeaders(), preservedHost);
				if (responseTimeout != null) {
					clientRequest.responseTimeout(responseTimeout);
				}
				return out.send(request.getBody().map(UpstreamRoutingFilter::byteBuf));
			})
			.responseConnection((clientResponse, connection) -> {
				// The response is written later (ResponseWriteFilter), after every route
				// filter has seen it.
				exchange.getAttributes().put(CLIENT_RESPONSE_ATTR, clientResponse);
				exchange.getAttributes().put(CLIENT_RESPONSE_CONN_ATTR, connection);
				copyStatusAndHeaders(clientResponse, exchange, filters);
				return Mono.just(clientResponse);
			})
			.onErrorMap(ReadTimeoutException.class,
					(ex) -> new ResponseStatusException(HttpStatus.GATEWAY_TIMEOUT,
							"Response took longer than timeout: " + responseTimeout, ex))
			.then(chain.filter(exchange));
	}

	/**
	 * The filtered request headers onto the outgoing request, once: Reactor Netty has
	 * already put its Host (from the URL), and its User-Agent and Accept where the client
	 * sent none, which the client's own replace.
	 */
	static void copyRequestHeaders(HttpHeaders filtered, io.netty.handler.codec.http.HttpHeaders outgoing,
			@Nullable String preservedHost) {
		// The backing map: HttpHeaders.forEach first copies every name into a
		// case-insensitive set.
		filtered.asMultiValueMap().forEach((name, values) -> {
			if (!HttpHeaders.HOST.equalsIgnoreCase(name)) {
				outgoing.set(name, values);
			}
		});
		if (preservedHost != null) {
			outgoing.set(HttpHeaders.HOST, preservedHost);
		}
	}

	private static void copyStatusAndHeaders(HttpClientResponse clientResponse, ServerWebExchange exchange,
			@Nullable List<HttpHeadersFilter> filters) {
		ServerHttpResponse response = exchange.getResponse();
		String contentType = clientResponse.responseHeaders().get(HttpHeaders.CONTENT_TYPE);
		if (contentType != null && !contentType.isEmpty()) {
			exchange.getAttributes().put(ORIGINAL_RESPONSE_CONTENT_TYPE_ATTR, contentType);
		}
		int status = clientResponse.status().code();
		HttpStatus known = HttpStatus.resolve(status);
		if (known != null) {
			response.setStatusCode(known);
		}
		else if (response instanceof AbstractServerHttpResponse raw) {
			raw.setRawStatusCode(status);
		}
		// After the status, so the response header filters can see it.
		HopByHopHeaders.LeanFilter onlyHopByHop = onlyHopByHop(filters);
		if (onlyHopByHop != null) {
			// The usual case: one pass over the upstream's header lines into the
			// response.
			HttpHeaders target = response.getHeaders();
			Set<String> names = onlyHopByHop.copyResponseHeaders(clientResponse.responseHeaders(), target);
			if (!names.contains(HttpHeaders.TRANSFER_ENCODING) && names.contains(HttpHeaders.CONTENT_LENGTH)) {
				// Not both: a Content-Length wins.
				target.remove(HttpHeaders.TRANSFER_ENCODING);
			}
			exchange.getAttributes().put(CLIENT_RESPONSE_HEADER_NAMES, names);
			return;
		}
		// A view of the upstream's headers, not a copy: the response header filters make
		// their own.
		HttpHeaders headers = new HttpHeaders(new Netty4HeadersAdapter(clientResponse.responseHeaders()));
		HttpHeaders filteredHeaders = HttpHeadersFilter.filter(filters, headers, exchange, Type.RESPONSE);
		if (!filteredHeaders.containsHeader(HttpHeaders.TRANSFER_ENCODING)
				&& filteredHeaders.containsHeader(HttpHeaders.CONTENT_LENGTH)) {
			// Not both: a Content-Length wins.
			response.getHeaders().remove(HttpHeaders.TRANSFER_ENCODING);
		}
		exchange.getAttributes().put(CLIENT_RESPONSE_HEADER_NAMES, filteredHeaders.headerNames());
		response.getHeaders().addAll(filteredHeaders);
	}

	/**
	 * The lean hop-by-hop filter when it is the only header filter for responses (the
	 * gateway's default; tracing adds one), else {@code null}.
	 */
	static HopByHopHeaders.@Nullable LeanFilter onlyHopByHop(@Nullable List<HttpHeadersFilter> filters) {
		HopByHopHeaders.LeanFilter found = null;
		if (filters != null) {
			for (HttpHeadersFilter filter : filters) {
				if (filter.supports(Type.RESPONSE)) {
					if (found != null || !(filter instanceof HopByHopHeaders.LeanFilter lean)) {
						return null;
					}
					found = lean;
				}
			}
		}
		return found;
	}

	/**
	 * The route's {@code response-timeout} metadata (milliseconds; negative = none), else
	 * the global default.
	 */
	@Nullable Duration responseTimeout(Route route) {
		Object routeValue = route.getMetadata().get(RouteMetadataUtils.RESPONSE_TIMEOUT_ATTR);
		if (routeValue != null) {
			try {
				long millis = (routeValue instanceof Number number) ? number.longValue()
						: Long.parseLong(routeValue.toString().trim());
				return (millis >= 0) ? Duration.ofMillis(millis) : null;
			}
			catch (NumberFormatException ex) {
				// as the framework does: an unreadable value falls back to the global
				// default
			}
		}
		return this.defaultResponseTimeout;
	}

	/**
	 * Reactor Netty takes a {@link URI} as it is, but parses a URL string with a regular
	 * expression on every request; a URI with raw non-ASCII characters (which an HTTP
	 * request line cannot carry) is re-encoded first.
	 */
	static boolean isAscii(URI uri) {
		return isAscii(uri.getRawPath()) && isAscii(uri.getRawQuery()) && isAscii(uri.getRawAuthority());
	}

	private static boolean isAscii(@Nullable String text) {
		if (text != null) {
			for (int i = 0; i < text.length(); i++) {
				if (text.charAt(i) >= 128) {
					return false;
				}
			}
		}
		return true;
	}

	private static ByteBuf byteBuf(DataBuffer buffer) {
		if (buffer instanceof NettyDataBuffer netty) {
			return netty.getNativeBuffer();
		}
		throw new IllegalArgumentException("Unexpected request body buffer " + buffer.getClass().getName());
	}

}
