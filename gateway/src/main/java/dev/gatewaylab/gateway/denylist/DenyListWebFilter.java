package dev.gatewaylab.gateway.denylist;

import dev.gatewaylab.gateway.feature.Feature;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import dev.gatewaylab.denylist.Ipv4;
import dev.gatewaylab.gateway.clientip.ClientIpResolver;

/**
 * Answers 403 {@code {"resultMessage":"Deny"}} to a denied client before anything else
 * runs. A {@link WebFilter}, not a {@code GlobalFilter}: global filters only see requests
 * that matched a route, and an unrouted path from a denied client must be denied too (not
 * 404). The answer goes through the access-log global filter, so a denied request gets
 * the same two access-log lines (and {@code X-Request-Id}) as any other, with status 403.
 * <p>
 * The client is {@link ClientIpResolver#client resolved once} and kept on the exchange:
 * the login limit reads the same result. Cost per request: that resolution (a peer check,
 * the {@code X-Forwarded-For} walk behind a trusted proxy), one object and one exchange
 * attribute for the result, and one lookup.
 */
final class DenyListWebFilter implements WebFilter, Ordered, Feature {

	static final byte[] BODY = "{\"resultMessage\":\"Deny\"}".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

	private final ReloadingDenyList denyList;

	private final ClientIpResolver clientIp;

	private final GlobalFilter accessLog;

	DenyListWebFilter(ReloadingDenyList denyList, ClientIpResolver clientIp, GlobalFilter accessLog) {
		this.denyList = denyList;
		this.clientIp = clientIp;
		this.accessLog = accessLog;
	}

	@Override
	public int getOrder() {
		// Before every other web filter (and so before routing):
		// a denied request costs as little as possible.
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (!this.denyList.enforced()) {
			return chain.filter(exchange);
		}
		long ip = this.clientIp.client(exchange).ipv4();
		if (ip == Ipv4.INVALID || !this.denyList.current().denies(ip)) {
			return chain.filter(exchange);
		}
		this.denyList.countDenied();
		return this.accessLog.filter(exchange, DenyListWebFilter::deny);
	}

	static Mono<Void> deny(ServerWebExchange exchange) {
		ServerHttpResponse response = exchange.getResponse();
		response.setStatusCode(HttpStatus.FORBIDDEN);
		response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
		response.getHeaders().setContentLength(BODY.length);
		return response.writeWith(Mono.just(response.bufferFactory().wrap(BODY)));
	}

	@Override
	public String feature() {
		return "IP deny list";
	}

}
