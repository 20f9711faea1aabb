package dev.gatewaylab.monolith.login;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.apache.catalina.session.TooManyActiveSessionsException;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Turns Tomcat's refusal of one session too many (its manager's
 * {@code maxActiveSessions}, {@link SessionCap}) into a clear 503 with
 * {@code Retry-After}: the HTML error page for a browser, problem+json for anyone else.
 * Tomcat throws an {@code IllegalStateException}, which Spring Security's session-saving
 * code may take for a committed response and swallow (a sign-in that silently did not
 * stick); this filter, in front of Spring Security, hands the request on with a
 * {@code getSession} that throws an exception of its own instead, and answers it.
 * Sessions are made only by a successful sign-in.
 */
final class SessionCapFilter extends OncePerRequestFilter {

	/**
	 * Seconds a refused client is asked to wait: sessions end on sign-out or when idle.
	 */
	static final String RETRY_AFTER = "60";

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		try {
			chain.doFilter(new CappedSessions(request), response);
		}
		catch (ServletException | IOException | RuntimeException ex) {
			if (!(ex instanceof SessionCapReached) && !(ex.getCause() instanceof SessionCapReached)) {
				throw ex;
			}
			if (response.isCommitted()) {
				return;
			}
			response.reset();
			response.setHeader(HttpHeaders.RETRY_AFTER, RETRY_AFTER);
			if (acceptsHtml(request)) {
				response.sendError(HttpStatus.SERVICE_UNAVAILABLE.value());
			}
			else {
				LoginProblems.write(request, response, HttpStatus.SERVICE_UNAVAILABLE,
						"The server holds as many sessions as it may; sign in again later.");
			}
		}
	}

	/**
	 * The browser rule of the error pages: HTML for a client that asks for
	 * {@code text/html} or {@code text/*}.
	 */
	private static boolean acceptsHtml(HttpServletRequest request) {
		String accept = request.getHeader(HttpHeaders.ACCEPT);
		if (accept == null) {
			return false;
		}
		try {
			List<MediaType> types = MediaType.parseMediaTypes(accept);
			return types.stream().anyMatch((type) -> !type.isWildcardType() && type.includes(MediaType.TEXT_HTML));
		}
		catch (InvalidMediaTypeException ex) {
			return false;
		}
	}

	/** Tomcat's manager refused to make one session more. */
	static final class SessionCapReached extends RuntimeException {

		SessionCapReached(Throwable cause) {
			super("Too many sessions", cause, false, false);
		}

	}

	/**
	 * The request, with Tomcat's refusal of a new session as {@link SessionCapReached}.
	 */
	private static final class CappedSessions extends HttpServletRequestWrapper {

		CappedSessions(HttpServletRequest request) {
			super(request);
		}

		@Override
		public HttpSession getSession() {
			return getSession(true);
		}

		@Override
		public HttpSession getSession(boolean create) {
			try {
				return super.getSession(create);
			}
			catch (TooManyActiveSessionsException ex) {
				throw new SessionCapReached(ex);
			}
		}

	}

}
