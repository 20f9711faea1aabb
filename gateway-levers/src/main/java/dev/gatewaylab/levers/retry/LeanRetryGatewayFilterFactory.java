package dev.gatewaylab.gateway.proxy;

import java.time.Duration;
import java.util.List;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.cloud.gateway.filter.factory.RetryGatewayFilterFactory;
import org.springframework.cloud.gateway.filter.factory.RetryGatewayFilterFactory.BackoffConfig;
import org.springframework.cloud.gateway.filter.factory.RetryGatewayFilterFactory.RetryConfig;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

/**
 * {@code UpstreamRetry}: Spring Cloud Gateway's {@code Retry} filter with the same
 * arguments ({@link RetryConfig}: retries, methods, statuses, series, exceptions,
 * backoff) and the same meaning — an attempt that ends in a listed status or exception is
 * tried again, after a reset of the exchange, up to {@code retries} times with
 * exponential backoff — built for the request that needs no retry, which is nearly every
 * request. The framework's filter wraps every request in {@code retryWhen} and
 * {@code repeatWhen}, each with its own companion sink and per-request retry context,
 * whether or not anything fails. Here a request whose method is not retryable is not
 * wrapped at all, and one that is gets two plain operators; the retry machinery exists
 * only on the failure path.
 * <p>
 * One deliberate difference: a request with a body is never retried (the body has been
 * consumed by the first attempt; the framework's filter would resend it empty unless the
 * body was cached). Jitter and a retry timeout are not supported: configuring them is a
 * start-up error naming the framework's {@code Retry} as the alternative.
 * {@code GATEWAY_RETRY_FILTER=Retry} puts the framework's filter back.
 */
@Component
class UpstreamRetryGatewayFilterFactory extends AbstractGatewayFilterFactory<RetryConfig> {

	UpstreamRetryGatewayFilterFactory() {
		super(RetryConfig.class);
	}

	@Override
	public List<String> shortcutFieldOrder() {
		return new RetryGatewayFilterFactory().shortcutFieldOrder();
	}

	@Override
	public GatewayFilter apply(RetryConfig config) {
		config.validate();
		if (config.getJitter() != null || config.getTimeout() != null) {
			throw new IllegalArgumentException(
					"UpstreamRetry supports retries, methods, statuses, series, exceptions and "
							+ "backoff; for jitter or a retry timeout use the framework's Retry filter (GATEWAY_RETRY_FILTER=Retry)");
		}
		return new RetryFilter(config);
	}

	static final class RetryFilter implements GatewayFilter {

		private final RetryConfig config;

		RetryFilter(RetryConfig config) {
			this.config = config;
		}

		@Override
		public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
			ServerHttpRequest request = exchange.getRequest();
			if (!this.config.getMethods().contains(request.getMethod()) || hasBody(request.getHeaders())) {
				return chain.filter(exchange);
			}
			return attempt(exchange, chain, new int[1]);
		}

		/**
		 * One attempt; {@code retried[0]} counts the retries made so far, shared by every
		 * attempt of the request.
		 */
		private Mono<Void> attempt(ServerWebExchange exchange, GatewayFilterChain chain, int[] retried) {
			return chain.filter(exchange)
				.then(Mono.defer(() -> (retried[0] < this.config.getRetries() && isRetryable(exchange))
						? retry(exchange, chain, retried) : Mono.<Void>empty()))
				.onErrorResume((ex) -> retried[0] < this.config.getRetries() && isRetryable(ex),
						(ex) -> retry(exchange, chain, retried));
		}

		private Mono<Void> retry(ServerWebExchange exchange, GatewayFilterChain chain, int[] retried) {
			Duration backoff = backoff(retried[0]);
			retried[0]++;
			exchange.getAttributes().put(RetryGatewayFilterFactory.RETRY_ITERATION_KEY, retried[0]);
			Mono<Void> next = Mono.defer(() -> {
				ServerWebExchangeUtils.reset(exchange);
				return attempt(exchange, chain, retried);
			});
			return backoff.isZero() ? next : Mono.delay(backoff).then(next);
		}

		private boolean isRetryable(ServerWebExchange exchange) {
			if (exchange.getResponse().isCommitted()) {
				return false;
			}
			HttpStatusCode status = exchange.getResponse().getStatusCode();
			if (status == null) {
				return false;
			}
			if (status instanceof HttpStatus known && this.config.getStatuses().contains(known)) {
				return true;
			}
			HttpStatus.Series series = HttpStatus.Series.resolve(status.value());
			return series != null && this.config.getSeries().contains(series);
		}

		private boolean isRetryable(Throwable ex) {
			for (Class<? extends Throwable> type : this.config.getExceptions()) {
				if (type.isInstance(ex) || type.isInstance(ex.getCause())) {
					return true;
				}
			}
			return false;
		}

		/** firstBackoff × factor^n, at most maxBackoff; none without a backoff. */
		Duration backoff(int retriesSoFar) {
			BackoffConfig backoff = this.config.getBackoff();
			if (backoff == null) {
				return Duration.ZERO;
			}
			double millis = backoff.getFirstBackoff().toMillis() * Math.pow(backoff.getFactor(), retriesSoFar);
			Duration max = backoff.getMaxBackoff();
			long capped = (max != null) ? (long) Math.min(millis, max.toMillis())
					: (long) Math.min(millis, Long.MAX_VALUE);
			return Duration.ofMillis(capped);
		}

		private static boolean hasBody(HttpHeaders headers) {
			return headers.getContentLength() > 0 || headers.containsHeader(HttpHeaders.TRANSFER_ENCODING);
		}

		@Override
		public String toString() {
			return "UpstreamRetry[retries=" + this.config.getRetries() + ", methods=" + this.config.getMethods()
					+ ", statuses=" + this.config.getStatuses() + ", series=" + this.config.getSeries()
					+ ", exceptions=" + this.config.getExceptions() + "]";
		}

	}

}
