package dev.gatewaylab.gateway.clientip;

import java.net.InetSocketAddress;
import java.util.List;

import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

/**
 * Tells the upstream who the client is: {@code X-Forwarded-For} ends with the socket peer
 * of this request, and keeps the entries the client sent only when that peer is a trusted
 * proxy ({@code gateway.trusted-proxies}, the deny list's rule). A header from an
 * untrusted peer is dropped, so nobody reaching the gateway directly can choose the
 * address the upstream sees. The upstream applies the same rule with the gateway as its
 * trusted proxy: the right-most entry that is not a trusted proxy is the client. Also
 * {@code X-Forwarded-Proto}.
 * <p>
 * Spring Cloud Gateway's own {@code XForwardedHeadersFilter} trusts by a host-name regex
 * and is off until {@code trusted-proxies} is set; its
 * {@code RemoveXForwardedHeadersFilter} strips the client's copy first (order 0), this
 * one runs last on that writable copy. Cost per request: the peer's address as text and
 * one header value.
 */
@Component
class ForwardedForHeadersFilter implements HttpHeadersFilter, Ordered {

	static final String X_FORWARDED_PROTO = "X-Forwarded-Proto";

	private final ClientIpResolver clientIp;

	ForwardedForHeadersFilter(ClientIpResolver clientIp) {
		this.clientIp = clientIp;
	}

	@Override
	public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
		InetSocketAddress remote = exchange.getRequest().getRemoteAddress();
		if (remote == null || remote.getAddress() == null) {
			return input;
		}
		String peer = remote.getAddress().getHostAddress();
		String value = peer;
		if (this.clientIp.isTrustedPeer(remote)) {
			List<String> received = exchange.getRequest().getHeaders().get(ClientIpResolver.X_FORWARDED_FOR);
			if (received != null && !received.isEmpty()) {
				value = String.join(", ", received) + ", " + peer;
			}
		}
		HttpHeaders headers = input;
		try {
			headers.set(ClientIpResolver.X_FORWARDED_FOR, value);
		}
		catch (UnsupportedOperationException readOnly) {
			headers = new HttpHeaders();
			headers.putAll(input);
			headers.set(ClientIpResolver.X_FORWARDED_FOR, value);
		}
		String scheme = exchange.getRequest().getURI().getScheme();
		headers.set(X_FORWARDED_PROTO, (scheme != null) ? scheme : "http");
		return headers;
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
