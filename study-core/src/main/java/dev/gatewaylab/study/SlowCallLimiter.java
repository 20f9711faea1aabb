package dev.gatewaylab.study;

import java.util.concurrent.Semaphore;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * Bounds how many requests may sleep in the slow endpoint at once. A servlet thread
 * cannot notice that its caller hung up (the gateway's 504 closes the connection, but a
 * sleeping thread never writes until it wakes), so without a bound ~200 slow calls behind
 * timed-out clients held every Tomcat thread and starved the fast endpoints. Over the
 * bound: 503 problem+json with {@code Retry-After}. {@code study.slow.max-concurrent}
 * (env {@code STUDY_SLOW_MAX_CONCURRENT}); 0, the default, means 100 on platform threads
 * (half of Tomcat's default pool) and 10,000 on virtual threads, where a sleeping request
 * holds no pool thread (the slow-upstream experiment keeps ≈ 300 in flight).
 */
final class SlowCallLimiter {

	static final int PLATFORM_DEFAULT = 100;

	static final int VIRTUAL_DEFAULT = 10_000;

	/**
	 * The configured bound, or when it is 0 the default for the kind of request threads.
	 */
	static int effectiveMax(int configured, boolean virtualThreads) {
		if (configured != 0) {
			return configured;
		}
		return virtualThreads ? VIRTUAL_DEFAULT : PLATFORM_DEFAULT;
	}

	private final Semaphore permits;

	private final int max;

	SlowCallLimiter(int max) {
		if (max < 1) {
			throw new IllegalArgumentException("study.slow.max-concurrent must be at least 1, was " + max);
		}
		this.permits = new Semaphore(max);
		this.max = max;
	}

	/**
	 * Sleeps {@code millis} holding a permit, or throws a 503 when all permits are taken.
	 */
	void sleep(long millis) throws InterruptedException {
		if (!this.permits.tryAcquire()) {
			ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
					"More than " + this.max + " slow calls at once; try again later.");
			throw new ErrorResponseException(HttpStatus.SERVICE_UNAVAILABLE, problem, null) {
				@Override
				public HttpHeaders getHeaders() {
					HttpHeaders headers = new HttpHeaders();
					headers.set(HttpHeaders.RETRY_AFTER, "1");
					return headers;
				}
			};
		}
		try {
			Thread.sleep(millis);
		}
		finally {
			this.permits.release();
		}
	}

	int available() {
		return this.permits.availablePermits();
	}

}
