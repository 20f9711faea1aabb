package dev.gatewaylab.gateway.logging;

import java.net.InetSocketAddress;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

import dev.gatewaylab.gateway.server.RequestGuard;
import dev.gatewaylab.gateway.tracing.ExchangeTraces;

/**
 * Creates or propagates {@code X-Request-Id} (returned to the client here, sent upstream
 * by {@link RequestIdHeadersFilter}) and writes one access-log line per request when it
 * completes: id, method, path, client, status, duration, and the trace id when tracing is
 * on. Logging goes through SLF4J; with Log4j2 all-async loggers the line is formatted and
 * written on the disruptor's thread, so the event loop only enqueues.
 * <p>
 * The request itself is never mutated: {@code request.mutate()} copies every header and
 * re-parses the path on each request; the id travels as an exchange attribute into the
 * header copy the routing filter makes anyway.
 */
@Component
class AccessLogGlobalFilter implements GlobalFilter, Ordered {

	static final String REQUEST_ID_HEADER = "X-Request-Id";

	/**
	 * Exchange attribute holding the request id, for {@link RequestIdHeadersFilter} and
	 * anyone else.
	 */
	static final String REQUEST_ID_ATTRIBUTE = AccessLogGlobalFilter.class.getName() + ".requestId";

	/** Logger name the log configurations route to the access-log appender. */
	static final String LOGGER_NAME = "dev.gatewaylab.gateway.access";

	private static final Logger logger = LoggerFactory.getLogger(LOGGER_NAME);

	// A client's id is reused only if it is short and harmless in a log line.
	private static final Pattern SAFE_REQUEST_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

	private final boolean enabled;

	AccessLogGlobalFilter(@Value("${" + LoggingMode.PROPERTY + ":async}") String mode) {
		this.enabled = LoggingMode.of(mode) != LoggingMode.OFF;
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
		String requestId = requestId(request.getHeaders().getFirst(REQUEST_ID_HEADER));
		exchange.getAttributes().put(REQUEST_ID_ATTRIBUTE, requestId);
		exchange.getResponse().getHeaders().set(REQUEST_ID_HEADER, requestId);
		if (!this.enabled || !logger.isInfoEnabled()) {
			// Off (GATEWAY_LOGGING_MODE=off, or the access logger's level set to OFF at
			// run time, as the lab's logging
			// experiment does through the loggers endpoint): no timing, no completion
			// hook.
			return chain.filter(exchange);
		}
		long start = System.nanoTime();
		return chain.filter(exchange).doFinally((signal) -> log(exchange, requestId, start, signal));
	}

	private static void log(ServerWebExchange exchange, String requestId, long start, SignalType signal) {
		ServerHttpRequest request = exchange.getRequest();
		HttpStatusCode status = exchange.getResponse().getStatusCode();
		if (signal != SignalType.ON_COMPLETE) {
			// Cut off by the server's RequestGuard (malformed or stalled body): its
			// answer is what the client got.
			Integer refused = RequestGuard.clientErrorStatus(request);
			if (refused != null) {
				status = HttpStatusCode.valueOf(refused);
				signal = SignalType.ON_COMPLETE;
			}
		}
		long micros = (System.nanoTime() - start) / 1_000;
		// Arguments are cheap to capture (no string building here): the async logger
		// formats on its own thread.
		String traceId = ExchangeTraces.traceId(exchange);
		logger.info("id={} method={} path={} client={} status={} durationMs={}.{}{}{}{}", requestId,
				request.getMethod(), request.getPath().value(), clientIp(request.getRemoteAddress()),
				(signal == SignalType.CANCEL) ? "cancelled" : (status != null) ? status.value() : "none", micros / 1000,
				(micros % 1000) / 100, (micros % 100) / 10, micros % 10,
				(traceId != null) ? " traceId=" + traceId : "");
	}

	static String requestId(String fromClient) {
		if (fromClient != null && SAFE_REQUEST_ID.matcher(fromClient).matches()) {
			return fromClient;
		}
		// UUID.randomUUID() draws from SecureRandom, which contends under load; an id
		// needs no secrecy.
		ThreadLocalRandom random = ThreadLocalRandom.current();
		return new UUID(random.nextLong(), random.nextLong()).toString();
	}

	/** The socket peer: never a header the client can forge, and never a DNS lookup. */
	static String clientIp(InetSocketAddress remote) {
		if (remote == null) {
			return "-";
		}
		return (remote.getAddress() != null) ? remote.getAddress().getHostAddress() : remote.getHostString();
	}

}
