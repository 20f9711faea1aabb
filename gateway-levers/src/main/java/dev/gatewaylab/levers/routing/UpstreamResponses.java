package dev.gatewaylab.levers.routing;

import java.util.List;
import java.util.Set;

import dev.gatewaylab.levers.headers.HopByHopHeaders;
import org.jspecify.annotations.Nullable;
import reactor.netty.http.client.HttpClientResponse;

import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter.Type;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.AbstractServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.http.support.Netty4HeadersAdapter;
import org.springframework.web.server.ServerWebExchange;

import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.CLIENT_RESPONSE_HEADER_NAMES;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.ORIGINAL_RESPONSE_CONTENT_TYPE_ATTR;

/**
 * The upstream's status and headers onto the client's response, as Spring Cloud Gateway's
 * {@code NettyRoutingFilter} puts them (the response header filters applied after the
 * status is set, {@code Transfer-Encoding} dropped beside a {@code Content-Length}, the
 * names added recorded for a retry to take back), without the copies: the upstream's
 * headers read through a view, and in one pass when the lean hop-by-hop filter is the
 * only response header filter.
 */
final class UpstreamResponses {

	private UpstreamResponses() {
	}

	static void copyStatusAndHeaders(HttpClientResponse clientResponse, ServerWebExchange exchange,
			@Nullable List<HttpHeadersFilter> filters) {
		ServerHttpResponse response = exchange.getResponse();
		String contentType = clientResponse.responseHeaders().get(HttpHeaders.CONTENT_TYPE);
		if (contentType != null && !contentType.isEmpty()) {
			exchange.getAttributes().put(ORIGINAL_RESPONSE_CONTENT_TYPE_ATTR, contentType);
		}
		setStatus(response, clientResponse.status().code());
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
	 * The upstream's status on the response; one Spring does not know is set raw, on the
	 * response under any decorators, as the framework does.
	 */
	private static void setStatus(ServerHttpResponse response, int status) {
		HttpStatus known = HttpStatus.resolve(status);
		if (known != null) {
			response.setStatusCode(known);
			return;
		}
		ServerHttpResponse raw = response;
		while (raw instanceof ServerHttpResponseDecorator decorator) {
			raw = decorator.getDelegate();
		}
		if (!(raw instanceof AbstractServerHttpResponse abstractResponse)) {
			throw new IllegalStateException(
					"Unable to set status code " + status + " on response of type " + raw.getClass().getName());
		}
		abstractResponse.setRawStatusCode(status);
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

}
