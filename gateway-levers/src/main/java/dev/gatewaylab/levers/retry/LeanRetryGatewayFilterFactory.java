package dev.gatewaylab.levers.retry;

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
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

import static org.springframework.cloud.gateway.filter.factory.RetryGatewayFilterFactory.RETRY_ITERATION_KEY;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.CACHED_REQUEST_BODY_ATTR;

/**
 * The retry lever: the {@code Retry} filter (this factory takes the framework's name, its
 * arguments — {@link RetryConfig} — and its meaning: an attempt that ends in a listed
 * status, series or exception is tried again after a reset of the exchange, up to
 * {@code retries} times, with the same backoff; {@code retry_iteration} counts the
 * attempts) built for the request that needs no retry, which is nearly every request. The
 * framework's filter wraps every request in {@code retryWhen} and {@code repeatWhen},
 * each with its own companion sink and per-request retry context, whether or not anything
 * fails. Here a request whose method is not retryable passes straight on, and one that is
 * gets two plain operators; the retry machinery exists only on the failure path.
 * <p>
 * What this filter does not do itself goes to the framework's filter, built from the same
 * arguments: a configuration with jitter or a retry timeout, and a request whose body the
 * gateway has cached ({@code AdaptCachedBodyGlobalFilter}, which the framework's filter
 * turns on for its route, as this one does). One deliberate difference: a request with a
 * body that was <em>not</em> cached is not retried — its body was consumed by the first
 * attempt, and the framework's filter would send the retry without it (the upstream then
 * waits for a body that never comes).
 */
public class LeanRetryGatewayFilterFactory extends AbstractGatewayFilterFactory<RetryConfig> {

	private final RetryGatewayFilterFactory framework = new RetryGatewayFilterFactory();

	public LeanRetryGatewayFilterFactory() {
		super(RetryConfig.class);
	}

	/** The framework's name: routes keep saying {@code Retry}. */
	@Override
	public String name() {
		return this.framework.name();
	}

	@Override
	public List<String> shortcutFieldOrder() {
		return this.framework.shortcutFieldOrder();
	}

	@Override
	public void setApplicationEventPublisher(ApplicationEventPublisher publisher) {
		super.setApplicationEventPublisher(publisher);
		this.framework.setApplicationEventPublisher(publisher);
	}

	@Override
	public GatewayFilter apply(RetryConfig config) {
		config.validate();
		// The framework's filter, for what this one leaves to it; building it also turns
		// on
		// the body cache for the route, as using the framework's factory would.
		GatewayFilter framework = this.framework.apply(config);
		if (config.getJitter() != null || config.getTimeout() != null) {
			return framework;
		}
		return new LeanRetryFilter(config, framework);
	}

	static final class LeanRetryFilter implements GatewayFilter {

		private final RetryConfig config;

		private final GatewayFilter framework;

		LeanRetryFilter(RetryConfig config, GatewayFilter framework) {
			this.config = config;
			this.framework = framework;
		}

		@Override
		public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
			ServerHttpRequest request = exchange.getRequest();
			if (hasBody(request.getHeaders())) {
				return (exchange.getAttributes().containsKey(CACHED_REQUEST_BODY_ATTR))
						? this.framework.filter(exchange, chain) : chain.filter(exchange);
			}
			if (!this.config.getMethods().contains(request.getMethod())) {
				// Never retried; the framework's filter still counts the attempt.
				return chain.filter(exchange).doOnTerminate(() -> recordAttempt(exchange, 0));
			}
			return attempt(exchange, chain, new int[1]);
		}

		/**
		 * One attempt; {@code retried[0]} counts the retries made so far, shared by every
		 * attempt of the request. This attempt's number is recorded once it has ended,
		 * well or not: an error of a later attempt that passes through here again leaves
		 * the higher number.
		 */
		private Mono<Void> attempt(ServerWebExchange exchange, GatewayFilterChain chain, int[] retried) {
			int number = retried[0];
			return chain.filter(exchange).then(Mono.defer(() -> {
				recordAttempt(exchange, number);
				return (retried[0] < this.config.getRetries() && isRetryable(exchange))
						? retry(exchange, chain, retried) : Mono.<Void>empty();
			})).onErrorResume((ex) -> {
				recordAttempt(exchange, number);
				return (retried[0] < this.config.getRetries() && isRetryable(ex)) ? retry(exchange, chain, retried)
						: Mono.error(ex);
			});
		}

		private Mono<Void> retry(ServerWebExchange exchange, GatewayFilterChain chain, int[] retried) {
			Duration backoff = backoff(retried[0]);
			retried[0]++;
			Mono<Void> next = Mono.defer(() -> {
				ServerWebExchangeUtils.reset(exchange);
				return attempt(exchange, chain, retried);
			});
			return backoff.isZero() ? next : Mono.delay(backoff).then(next);
		}

		/**
		 * {@code retry_iteration}: 0 after the first attempt, 1 after the first retry —
		 * as the framework's filter keeps it.
		 */
		private static void recordAttempt(ServerWebExchange exchange, int number) {
			Integer recorded = exchange.getAttribute(RETRY_ITERATION_KEY);
			if (recorded == null || recorded < number) {
				exchange.getAttributes().put(RETRY_ITERATION_KEY, number);
			}
		}

		/**
		 * As the framework decides: a listed status, or a known status in a listed
		 * series.
		 */
		private boolean isRetryable(ServerWebExchange exchange) {
			if (exchange.getResponse().isCommitted()) {
				return false;
			}
			HttpStatusCode status = exchange.getResponse().getStatusCode();
			if (status == null) {
				return false;
			}
			if (this.config.getStatuses().contains(status)) {
				return true;
			}
			return status instanceof HttpStatus known && this.config.getSeries().contains(known.series());
		}

		private boolean isRetryable(Throwable ex) {
			for (Class<? extends Throwable> type : this.config.getExceptions()) {
				if (type.isInstance(ex) || type.isInstance(ex.getCause())) {
					return true;
				}
			}
			return false;
		}

		/**
		 * firstBackoff × factor^n, at most maxBackoff; none without a backoff. (Without
		 * jitter, "based on the previous value" gives the same sequence.)
		 */
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
			return "Retry[lean, retries=" + this.config.getRetries() + ", methods=" + this.config.getMethods()
					+ ", statuses=" + this.config.getStatuses() + ", series=" + this.config.getSeries()
					+ ", exceptions=" + this.config.getExceptions() + "]";
		}

	}

}
