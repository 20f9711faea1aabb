package dev.gatewaylab.servlet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

/**
 * A path parameter ({@code ;name=value} in a segment) with a broken %-escape gets 400
 * problem+json. Tomcat checks the escapes of the path but passes path parameters on
 * undecoded; Spring's path parser then threw on them before any controller (in the
 * monolith inside Spring Security's filter chain, so even the error page failed): a 500.
 * Costs one {@code indexOf(';')} per request; only a URI with a {@code ;} is scanned.
 */
final class PathParameterFilter implements Filter {

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		String uri = ((HttpServletRequest) request).getRequestURI();
		int semicolon = uri.indexOf(';');
		if (semicolon >= 0 && hasBrokenEscape(uri, semicolon)) {
			byte[] body = ("{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":400,"
					+ "\"detail\":\"Malformed %-escape in a path parameter.\"}")
				.getBytes(StandardCharsets.UTF_8);
			HttpServletResponse http = (HttpServletResponse) response;
			http.setStatus(HttpStatus.BAD_REQUEST.value());
			http.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
			http.setContentLength(body.length);
			http.getOutputStream().write(body);
			return;
		}
		chain.doFilter(request, response);
	}

	/**
	 * A '%' not followed by two hex digits after {@code from} (the path itself before it
	 * Tomcat has checked).
	 */
	static boolean hasBrokenEscape(String uri, int from) {
		for (int pct = uri.indexOf('%', from); pct >= 0; pct = uri.indexOf('%', pct + 1)) {
			if (pct + 2 >= uri.length() || Character.digit(uri.charAt(pct + 1), 16) < 0
					|| Character.digit(uri.charAt(pct + 2), 16) < 0) {
				return true;
			}
		}
		return false;
	}

}
