package dev.gatewaylab.servlet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Locale;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

/**
 * An {@code Accept-Language} with more language ranges than Tomcat's connector accepts
 * ({@code maxLocaleCount}, 10 by default) gets 400 problem+json. Tomcat throws on it from
 * {@code getLocale()}, which Spring's request-context filter calls for every request and
 * the error page again: a 500 with no way for the client to tell what was wrong. Tomcat
 * parses the header once per request and keeps the result, so reading it here first costs
 * nothing more; a request without the header is not looked at. On the error page of a
 * request Tomcat refused before any filter (a malformed head), the original error stays:
 * the request reads as having the server's default locale.
 */
final class AcceptLanguageFilter implements Filter {

	private static final byte[] BODY = ("{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":400,"
			+ "\"detail\":\"The Accept-Language header lists more language ranges than the server accepts.\"}")
		.getBytes(StandardCharsets.UTF_8);

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		HttpServletRequest http = (HttpServletRequest) request;
		if (http.getHeader(HttpHeaders.ACCEPT_LANGUAGE) == null || localesReadable(http)) {
			chain.doFilter(request, response);
		}
		else if (request.getDispatcherType() == DispatcherType.ERROR) {
			chain.doFilter(new DefaultLocaleRequest(http), response);
		}
		else {
			HttpServletResponse out = (HttpServletResponse) response;
			out.setStatus(HttpStatus.BAD_REQUEST.value());
			out.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
			out.setContentLength(BODY.length);
			out.getOutputStream().write(BODY);
		}
	}

	private static boolean localesReadable(HttpServletRequest request) {
		try {
			request.getLocale();
			return true;
		}
		catch (IllegalArgumentException tooMany) {
			return false;
		}
	}

	/** A request whose locale is the server's default, whatever it sent. */
	private static final class DefaultLocaleRequest extends HttpServletRequestWrapper {

		DefaultLocaleRequest(HttpServletRequest request) {
			super(request);
		}

		@Override
		public Locale getLocale() {
			return Locale.getDefault();
		}

		@Override
		public Enumeration<Locale> getLocales() {
			return Collections.enumeration(java.util.List.of(Locale.getDefault()));
		}

	}

}
