package dev.gatewaylab.accesslog.webflux;

import dev.gatewaylab.accesslog.AccessLog;
import dev.gatewaylab.accesslog.LoggingMode;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

/**
 * Creates or propagates {@code X-Request-Id} (returned to the client here, sent upstream
 * by {@link RequestIdHeadersFilter}) and writes one access-log line per request when it
 * completes ({@link AccessLog}).
 * <p>
 * The request itself is never mutated: {@code request.mutate()} copies every header and
 * re-parses the path on each request; the id travels as an exchange attribute into the
 * header copy the routing filter makes anyway.
 */
public class AccessLogGlobalFilter implements GlobalFilter, Ordered {

	/**
	 * Exchange attribute holding the request id, for {@link RequestIdHeadersFilter} and
	 * anyone else.
	 */
	public static final String REQUEST_ID_ATTRIBUTE = AccessLogGlobalFilter.class.getName() + ".requestId";

	private final boolean enabled;

	private final ExchangeDetails details;

	public AccessLogGlobalFilter(LoggingMode mode, @Nullable ExchangeDetails details) {
		this.enabled = mode != LoggingMode.OFF;
		this.details = (details != null) ? details : new ExchangeDetails() {
		};
	}

	@Override
	public int getOrder() {
		// First of the global filters, so the duration covers every other filter and the
		// upstream call.
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		String requestId = AccessLog.requestId(request.getHeaders().getFirst(AccessLog.REQUEST_ID_HEADER));
		exchange.getAttributes().put(REQUEST_ID_ATTRIBUTE, requestId);
		exchange.getResponse().getHeaders().set(AccessLog.REQUEST_ID_HEADER, requestId);
		if (!this.enabled || !AccessLog.isOn()) {
			// Off (GATEWAY_LOGGING_MODE=off, or the access logger's level set to OFF at
			// run
			// time, as the lab's logging experiment does through the loggers endpoint):
			// no timing, no completion hook.
			return chain.filter(exchange);
		}
		long start = System.nanoTime();
		return chain.filter(exchange).doFinally((signal) -> log(exchange, requestId, start, signal));
	}

	private void log(ServerWebExchange exchange, String requestId, long start, SignalType signal) {
		ServerHttpRequest request = exchange.getRequest();
		HttpStatusCode status = exchange.getResponse().getStatusCode();
		if (signal != SignalType.ON_COMPLETE) {
			// Cut off by the server (malformed or stalled body): its answer is what the
			// client got.
			Integer refused = this.details.refusedStatus(exchange);
			if (refused != null) {
				status = HttpStatusCode.valueOf(refused);
				signal = SignalType.ON_COMPLETE;
			}
		}
		long micros = (System.nanoTime() - start) / 1_000;
		AccessLog.log(requestId, request.getMethod(), request.getPath().value(),
				AccessLog.clientIp(request.getRemoteAddress()),
				(signal == SignalType.CANCEL) ? "cancelled" : (status != null) ? status.value() : "none", micros,
				this.details.traceId(exchange));
	}

}
