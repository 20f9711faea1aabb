package dev.gatewaylab.monolith.login;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Every redirect keeps the relative {@code Location} it was given, for HTTP/1.0 too.
 * Tomcat's {@code use-relative-redirects} applies to HTTP/1.1 only: for an HTTP/1.0
 * request (RFC 1945 wanted an absolute URI) Tomcat built one from the request's own
 * {@code Host}, so {@code Host: evil.example} got
 * {@code Location: http://evil.example/login}. RFC 9110 §10.2.2 allows a relative
 * reference, and every client resolves it against the URI it asked for — through the
 * gateway too. The sign-in's redirects are relative already ({@code /login}, {@code /},
 * {@code /login?error}); this keeps them so. Spring's {@code RelativeRedirectFilter} does
 * the same for {@code sendRedirect(String)} only.
 */
final class RelativeLocationFilter extends OncePerRequestFilter {

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		chain.doFilter(request, new RelativeLocation(response));
	}

	/** A redirect: the status and the Location header as given, committed at once. */
	private static final class RelativeLocation extends HttpServletResponseWrapper {

		RelativeLocation(HttpServletResponse response) {
			super(response);
		}

		@Override
		public void sendRedirect(String location) throws IOException {
			sendRedirect(location, SC_FOUND, true);
		}

		@Override
		public void sendRedirect(String location, boolean clearBuffer) throws IOException {
			sendRedirect(location, SC_FOUND, clearBuffer);
		}

		@Override
		public void sendRedirect(String location, int status) throws IOException {
			sendRedirect(location, status, true);
		}

		@Override
		public void sendRedirect(String location, int status, boolean clearBuffer) throws IOException {
			if (isCommitted()) {
				throw new IllegalStateException("The response is committed: no redirect");
			}
			setStatus(status);
			setHeader(HttpHeaders.LOCATION, location);
			if (clearBuffer) {
				resetBuffer();
				// no body, as Tomcat's own redirect; what is written after it is dropped
				setContentLength(0);
			}
			flushBuffer();
		}

	}

}
