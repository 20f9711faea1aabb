package dev.gatewaylab.monolith.login;

import java.io.IOException;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Login attempts ({@code POST /login}) per user name: a token bucket of {@code perUser}
 * attempts per {@code window} (Bucket4j) in a bounded Caffeine cache; over it, 429
 * problem+json with {@code Retry-After} before the password is even hashed (each BCrypt
 * check costs ≈ 100 ms of CPU). It guards one account against guessing from many
 * addresses; the per-address limit is the gateway's, which knows the client address. Runs
 * inside Spring Security's chain, after the CSRF check and before the password check: an
 * attempt without a valid CSRF token is refused (403) before it gets here and spends
 * nothing — a flood of them used to spend the user's budget, and the user with the right
 * password then got 429. It passes the password check the {@link LoginName#canonical
 * canonical} name: the budget charged is the one of the name the sign-in looks up. A name
 * that is missing or blank, or that has a control or other non-printable character, is
 * refused with 400 problem+json before any budget is charged or any password hashed: it
 * can never sign anyone in (Spring Security would still have hashed the password, against
 * a dummy, for a blank name).
 */
final class LoginAttemptLimiter extends OncePerRequestFilter {

	static final String USERNAME = "username";

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
		String submitted = request.getParameter(USERNAME);
		String name = (submitted != null) ? LoginName.canonical(submitted) : "";
		if (name == null) {
			LoginProblems.write(request, response, HttpStatus.BAD_REQUEST,
					"The user name contains a control, format or other non-printable character.");
			return;
		}
		if (LoginName.blank(name)) {
			LoginProblems.write(request, response, HttpStatus.BAD_REQUEST, "The user name is empty.");
			return;
		}
		ConsumptionProbe probe = this.buckets.get(LoginName.budgetKey(name), (key) -> newBucket())
			.tryConsumeAndReturnRemaining(1);
		if (!probe.isConsumed()) {
			long retryAfter = Math.max(1, (probe.getNanosToWaitForRefill() + 999_999_999L) / 1_000_000_000L);
			response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(retryAfter));
			LoginProblems.write(request, response, HttpStatus.TOO_MANY_REQUESTS,
					"Too many login attempts for this user.");
			return;
		}
		chain.doFilter(new CanonicalUsername(request, name), response);
	}

	private Bucket newBucket() {
		return Bucket.builder()
			.addLimit(Bandwidth.builder().capacity(this.perUser).refillGreedy(this.perUser, this.window).build())
			.build();
	}

	/** The request with its user name replaced by the canonical one. */
	private static final class CanonicalUsername extends HttpServletRequestWrapper {

		private final String name;

		CanonicalUsername(HttpServletRequest request, String name) {
			super(request);
			this.name = name;
		}

		@Override
		public String getParameter(String parameter) {
			return USERNAME.equals(parameter) ? this.name : super.getParameter(parameter);
		}

		@Override
		public String[] getParameterValues(String parameter) {
			return USERNAME.equals(parameter) ? new String[] { this.name } : super.getParameterValues(parameter);
		}

		@Override
		public Map<String, String[]> getParameterMap() {
			Map<String, String[]> parameters = new HashMap<>(super.getParameterMap());
			parameters.put(USERNAME, new String[] { this.name });
			return Collections.unmodifiableMap(parameters);
		}

	}

}
