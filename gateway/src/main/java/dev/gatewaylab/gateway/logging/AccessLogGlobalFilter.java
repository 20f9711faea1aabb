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

/**
 * Writes one line per request and one per response, and creates or propagates {@code X-Request-Id} (sent upstream
 * and returned to the client). Logging goes through SLF4J; with Log4j2 all-async loggers the line is formatted and
 * written on the disruptor's thread, so the event loop only enqueues.
 */
@Component
class AccessLogGlobalFilter implements GlobalFilter, Ordered {

	static final String REQUEST_ID_HEADER = "X-Request-Id";

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
		// First of the global filters, so the duration covers every other filter and the upstream call.
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		String requestId = requestId(request.getHeaders().getFirst(REQUEST_ID_HEADER));
		ServerHttpRequest mutated = request.mutate().headers((headers) -> headers.set(REQUEST_ID_HEADER, requestId)).build();
		exchange.getResponse().getHeaders().set(REQUEST_ID_HEADER, requestId);
		ServerWebExchange forwarded = exchange.mutate().request(mutated).build();
		if (!this.enabled) {
			return chain.filter(forwarded);
		}
		long start = System.nanoTime();
		logger.info("request id={} method={} path={} client={}", requestId, request.getMethod(),
				request.getPath().value(), clientIp(request.getRemoteAddress()));
		return chain.filter(forwarded).doFinally((signal) -> {
			HttpStatusCode status = exchange.getResponse().getStatusCode();
			long micros = (System.nanoTime() - start) / 1_000;
			logger.info("response id={} status={} durationMs={}.{}{}", requestId,
					(signal == SignalType.CANCEL) ? "cancelled" : (status != null) ? status.value() : "none",
					micros / 1000, (micros % 1000) / 100, (micros % 100) / 10);
		});
	}

	static String requestId(String fromClient) {
		if (fromClient != null && SAFE_REQUEST_ID.matcher(fromClient).matches()) {
			return fromClient;
		}
		// UUID.randomUUID() draws from SecureRandom, which contends under load; an id needs no secrecy.
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
