package dev.gatewaylab.monolith.login;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Login attempts ({@code POST /login}) per user name: a token bucket of {@code perUser}
 * attempts per {@code window} (Bucket4j) in a bounded Caffeine cache; over it, 429
 * problem+json with {@code Retry-After} before the password is even hashed (each BCrypt
 * check costs ≈ 100 ms of CPU). It guards one account against guessing from many
 * addresses; the per-address limit is the gateway's, which knows the client address. Runs
 * before Spring Security's chain.
 */
final class LoginAttemptLimiter extends OncePerRequestFilter {

	private final int perUser;

	private final Duration window;

	private final Cache<String, Bucket> buckets;

	LoginAttemptLimiter(int perUser, Duration window, long maxUsers) {
		this.perUser = perUser;
		this.window = window;
		this.buckets = Caffeine.newBuilder().maximumSize(maxUsers).expireAfterAccess(window).build();
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !"POST".equals(request.getMethod()) || !"/login".equals(request.getServletPath());
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String username = request.getParameter("username");
		if (username == null || username.isBlank()) {
			chain.doFilter(request, response);
			return;
		}
		// Bounded key: a 10 kB "user name" must not become a 10 kB cache key.
		String key = username.strip().toLowerCase(Locale.ROOT);
		key = key.substring(0, Math.min(key.length(), 100));
		Bucket bucket = this.buckets.get(key,
				(name) -> Bucket.builder()
					.addLimit(
							Bandwidth.builder().capacity(this.perUser).refillGreedy(this.perUser, this.window).build())
					.build());
		ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
		if (probe.isConsumed()) {
			chain.doFilter(request, response);
			return;
		}
		long retryAfter = Math.max(1, (probe.getNanosToWaitForRefill() + 999_999_999L) / 1_000_000_000L);
		byte[] body = ("{\"type\":\"about:blank\",\"title\":\"Too Many Requests\",\"status\":429,"
				+ "\"detail\":\"Too many login attempts for this user.\"}")
			.getBytes(StandardCharsets.UTF_8);
		response.setStatus(HttpStatus.TOO_MANY_REQUESTS.value());
		response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(retryAfter));
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.setContentLength(body.length);
		response.getOutputStream().write(body);
	}

}
