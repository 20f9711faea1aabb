package dev.gatewaylab.gatewaymvc.retry;

import java.io.IOException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.Set;

import dev.gatewaylab.gatewaymvc.error.UpstreamFailure;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.cloud.gateway.server.mvc.common.Configurable;
import org.springframework.cloud.gateway.server.mvc.common.MvcUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.web.servlet.function.HandlerFilterFunction;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * The WebFlux gateway's retry policy as a route filter of the MVC gateway
 * ({@code - name: UpstreamRetry} in a route's filters): an idempotent request without a
 * body that the upstream refused — answered with one of {@code statuses}, or not
 * reachable, or its connection closed before a response — is sent again, at most
 * {@code retries} times, after {@code firstBackoff × factorⁿ} (at most
 * {@code maxBackoff}); never after a timeout (a 504 stays one wait), never a request with
 * a body.
 * <p>
 * Spring Cloud Gateway Server WebMVC's own {@code Retry} cannot say this: it retries by
 * status series only (no {@code statuses}: a 500 or an upstream's 504 would be retried),
 * and it matches {@code exceptions} against the exception the {@code RestClient} throws,
 * which wraps a refused connection and a timeout alike in a
 * {@code ResourceAccessException}.
 */
public abstract class UpstreamRetryFilterFunctions {

	private UpstreamRetryFilterFunctions() {
	}

	@Configurable
	public static HandlerFilterFunction<ServerResponse, ServerResponse> upstreamRetry(Config config) {
		config.validate();
		return (request, next) -> {
			if (!config.getMethods().contains(request.method()) || hasBody(request.servletRequest())) {
				return next.handle(request);
			}
			for (int attempt = 0;; attempt++) {
				boolean last = attempt >= config.getRetries();
				ServerResponse response;
				try {
					response = next.handle(request);
				}
				catch (Exception ex) {
					UpstreamFailure failure = UpstreamFailure.of(ex);
					if (last || (failure != UpstreamFailure.UNAVAILABLE && failure != UpstreamFailure.DROPPED)) {
						throw ex;
					}
					pause(config.backoff(attempt));
					continue;
				}
				if (last || !config.getStatuses().contains(HttpStatus.resolve(response.statusCode().value()))) {
					return response;
				}
				discardUpstreamResponse(request.servletRequest());
				pause(config.backoff(attempt));
			}
		};
	}

	/**
	 * A body that was sent could not be sent again (it was read from the client as it
	 * went upstream).
	 */
	static boolean hasBody(HttpServletRequest request) {
		return request.getContentLengthLong() > 0 || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
	}

	/** The refused attempt's response, still open for the body nobody will read. */
	private static void discardUpstreamResponse(HttpServletRequest request) throws IOException {
		Object response = request.getAttribute(MvcUtils.CLIENT_RESPONSE_ATTR);
		if (response instanceof ClientHttpResponse refused) {
			refused.close();
		}
	}

	private static void pause(Duration delay) throws InterruptedException {
		// On a virtual thread (the gateway's default) sleeping parks the request, not a
		// carrier thread.
		Thread.sleep(delay.toMillis());
	}

	/** The filter's arguments, bound from the route's YAML. */
	public static class Config {

		private int retries = 2;

		private Set<HttpMethod> methods = new LinkedHashSet<>(Set.of(HttpMethod.GET, HttpMethod.HEAD));

		private Set<HttpStatus> statuses = EnumSet.of(HttpStatus.BAD_GATEWAY, HttpStatus.SERVICE_UNAVAILABLE);

		private Backoff backoff = new Backoff();

		public int getRetries() {
			return this.retries;
		}

		public void setRetries(int retries) {
			this.retries = retries;
		}

		public Set<HttpMethod> getMethods() {
			return this.methods;
		}

		public void setMethods(Set<HttpMethod> methods) {
			this.methods = methods;
		}

		public Set<HttpStatus> getStatuses() {
			return this.statuses;
		}

		public void setStatuses(Set<HttpStatus> statuses) {
			this.statuses = statuses;
		}

		public Backoff getBackoff() {
			return this.backoff;
		}

		public void setBackoff(Backoff backoff) {
			this.backoff = backoff;
		}

		void validate() {
			if (this.retries < 0) {
				throw new IllegalArgumentException("UpstreamRetry: retries must be 0 or more, not " + this.retries);
			}
			if (this.backoff.getFirstBackoff().isNegative() || this.backoff.getFactor() < 1
					|| this.backoff.getMaxBackoff().compareTo(this.backoff.getFirstBackoff()) < 0) {
				throw new IllegalArgumentException("UpstreamRetry: backoff needs firstBackoff >= 0, factor >= 1 and"
						+ " maxBackoff >= firstBackoff, not " + this.backoff);
			}
		}

		/** The pause after the failed attempt {@code attempt} (0 = the first call). */
		Duration backoff(int attempt) {
			double millis = this.backoff.getFirstBackoff().toMillis() * Math.pow(this.backoff.getFactor(), attempt);
			return Duration.ofMillis((long) Math.min(millis, this.backoff.getMaxBackoff().toMillis()));
		}

	}

	/** {@code firstBackoff × factorⁿ}, at most {@code maxBackoff}. */
	public static class Backoff {

		private Duration firstBackoff = Duration.ofMillis(50);

		private Duration maxBackoff = Duration.ofMillis(500);

		private int factor = 2;

		public Duration getFirstBackoff() {
			return this.firstBackoff;
		}

		public void setFirstBackoff(Duration firstBackoff) {
			this.firstBackoff = firstBackoff;
		}

		public Duration getMaxBackoff() {
			return this.maxBackoff;
		}

		public void setMaxBackoff(Duration maxBackoff) {
			this.maxBackoff = maxBackoff;
		}

		public int getFactor() {
			return this.factor;
		}

		public void setFactor(int factor) {
			this.factor = factor;
		}

		@Override
		public String toString() {
			return "firstBackoff=" + this.firstBackoff + ", maxBackoff=" + this.maxBackoff + ", factor=" + this.factor;
		}

	}

}
