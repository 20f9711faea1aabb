package dev.gatewaylab.levers.routing;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.timeout.ReadTimeoutException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.netty.NettyPipeline;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientResponse;

import dev.gatewaylab.levers.headers.HopByHopHeaders;

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
import org.springframework.core.io.buffer.DefaultDataBuffer;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.AbstractServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
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
 * The routing lever's first half: sends the request to the route's upstream as Spring
 * Cloud Gateway's {@link NettyRoutingFilter} does — the {@code HttpHeadersFilter} beans
 * on request and response, the exchange attributes other filters read, the route's
 * {@code connect-timeout} and {@code response-timeout} metadata or the global response
 * timeout, 504 when it fires — with less work per request:
 * <ul>
 * <li>The response timeout is the request's own {@code responseTimeout} on Reactor
 * Netty's client: a read timer on the connection's event loop, removed once the
 * response's status and headers are in (the framework's {@code Flux.timeout} also stops
 * there). The framework's schedules and cancels a task on Reactor's parallel scheduler —
 * a lock and a wake-up of another thread — for every request. One difference: the timer
 * starts when the request is sent, so the time to set up a new connection (bounded by the
 * connect timeout) is not counted.</li>
 * <li>The request headers are set on the outgoing request itself, once, instead of
 * through {@code HttpClient.headers(...)}, which copies the client's configuration once
 * more per request; the route URL is handed to Reactor Netty as a {@link URI}, not as a
 * string it parses with a regular expression.</li>
 * <li>The global connect timeout is the client's own (set once when the client is built);
 * the framework copies the client's configuration for it on every request. A route's
 * {@code connect-timeout} metadata is applied per request, as the framework does.</li>
 * <li>The upstream's response headers are read through a view, not copied into a new map
 * first; with the lean hop-by-hop filter as the only response header filter they go into
 * the response in one pass.</li>
 * </ul>
 */
public class UpstreamRoutingFilter implements GlobalFilter, Ordered {

	private final HttpClient httpClient;

	private final HeadersFilters headersFilters;

	private final @Nullable Duration defaultResponseTimeout;

	public UpstreamRoutingFilter(HttpClient httpClient, ObjectProvider<List<HttpHeadersFilter>> headersFilters,
			HttpClientProperties properties) {
		this.httpClient = httpClient;
		this.headersFilters = new HeadersFilters(headersFilters);
		this.defaultResponseTimeout = properties.getResponseTimeout();
	}

	@Override
	public int getOrder() {
		return NettyRoutingFilter.ORDER;
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
		List<HttpHeadersFilter> filters = this.headersFilters.get();
		HttpHeaders filtered = HttpHeadersFilter.filterRequest(filters, exchange);
		// Reactor Netty keeps the Host it derived from the URL unless the route preserves
		// the client's.
		String preservedHost = exchange.getAttributeOrDefault(PRESERVE_HOST_HEADER_ATTRIBUTE, false)
				? request.getHeaders().getFirst(HttpHeaders.HOST) : null;
		Duration responseTimeout = responseTimeout(route);

		return httpClient(route).request(HttpMethod.valueOf(request.getMethod().name()))
			.uri(isAscii(requestUrl) ? requestUrl : URI.create(requestUrl.toASCIIString()))
			.send((clientRequest, out) -> {
				copyRequestHeaders(filtered, clientRequest.requestHeaders(), preservedHost);
				if (responseTimeout != null) {
					clientRequest.responseTimeout(responseTimeout);
				}
				return out.send(request.getBody().map(UpstreamRoutingFilter::byteBuf));
			})
			.responseConnection((clientResponse, connection) -> {
				// The timeout covers the wait for the status and headers, as the
				// framework's does: a body that streams slower is no timeout.
				connection.removeHandler(NettyPipeline.ResponseTimeoutHandler);
				// The response is written later (ResponseWriteFilter), after every route
				// filter has seen it.
				exchange.getAttributes().put(CLIENT_RESPONSE_ATTR, clientResponse);
				exchange.getAttributes().put(CLIENT_RESPONSE_CONN_ATTR, connection);
				UpstreamResponses.copyStatusAndHeaders(clientResponse, exchange, filters);
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

	/**
	 * The shared client, or — for a route with {@code connect-timeout} metadata — a copy
	 * with that connect timeout (per request, as the framework makes it).
	 */
	private HttpClient httpClient(Route route) {
		Object connectTimeout = route.getMetadata().get(RouteMetadataUtils.CONNECT_TIMEOUT_ATTR);
		if (connectTimeout == null) {
			return this.httpClient;
		}
		int millis = (connectTimeout instanceof Integer number) ? number : Integer.parseInt(connectTimeout.toString());
		return this.httpClient.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, millis);
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
		if (buffer instanceof DefaultDataBuffer plain) {
			// a mock request's body (MockServerHttpRequest), as the framework's filter
			// takes it
			return Unpooled.wrappedBuffer(plain.getNativeBuffer());
		}
		throw new IllegalArgumentException("Unexpected request body buffer " + buffer.getClass().getName());
	}

}
