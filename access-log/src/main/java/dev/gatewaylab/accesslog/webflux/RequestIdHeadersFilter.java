package dev.gatewaylab.accesslog.webflux;

import java.util.List;

import dev.gatewaylab.accesslog.AccessLog;

import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

/**
 * Puts the exchange's {@code X-Request-Id} (chosen by {@link AccessLogGlobalFilter}) on
 * the request sent upstream, as its only one: a client's second id (validated by nobody)
 * is dropped, an invalid one replaced. Runs last, on the writable header copy
 * {@code RemoveHopByHopHeadersFilter} has already made for the routing filter, so no
 * extra copy of the request's headers is made.
 */
public class RequestIdHeadersFilter implements HttpHeadersFilter, Ordered {

	@Override
	public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
		String requestId = exchange.getAttribute(AccessLogGlobalFilter.REQUEST_ID_ATTRIBUTE);
		List<String> sent = input.get(AccessLog.REQUEST_ID_HEADER);
		if (requestId == null || (sent != null && sent.size() == 1 && requestId.equals(sent.get(0)))) {
			return input; // the client's one valid id, as it is
		}
		try {
			input.set(AccessLog.REQUEST_ID_HEADER, requestId);
			return input;
		}
		catch (UnsupportedOperationException readOnly) {
			// Only without a hop-by-hop filter before it: the request's own headers are
			// read-only.
			HttpHeaders copy = new HttpHeaders();
			copy.putAll(input);
			copy.set(AccessLog.REQUEST_ID_HEADER, requestId);
			return copy;
		}
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
