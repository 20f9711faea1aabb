package dev.gatewaylab.accesslog.servlet;

import java.io.IOException;
import java.util.Enumeration;

import dev.gatewaylab.accesslog.AccessLog;
import dev.gatewaylab.accesslog.LoggingMode;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The access log of a servlet gateway: takes the client's {@code X-Request-Id} (or makes
 * one), shows it to everything after it as the request's only id — a servlet gateway
 * builds the upstream request from the servlet request's headers, so that is what goes
 * upstream — returns it to the client, and writes one line per request when it completes
 * ({@link AccessLog}, the line of every gateway of the lab).
 * <p>
 * The request is wrapped only when the id it carries is not already the one to send (no
 * id, an unsafe one, or several); the duration covers every filter after this one and the
 * upstream call, up to the last byte handed to the server.
 */
public class AccessLogFilter implements Filter {

	/** Request attribute holding the request id, for anyone after this filter. */
	public static final String REQUEST_ID_ATTRIBUTE = AccessLogFilter.class.getName() + ".requestId";

	private final boolean enabled;

	public AccessLogFilter(LoggingMode mode) {
		this.enabled = mode != LoggingMode.OFF;
	}

	@Override
	public void doFilter(ServletRequest servletRequest, ServletResponse servletResponse, FilterChain chain)
			throws IOException, ServletException {
		HttpServletRequest request = (HttpServletRequest) servletRequest;
		HttpServletResponse response = (HttpServletResponse) servletResponse;
		Enumeration<String> sent = request.getHeaders(AccessLog.REQUEST_ID_HEADER);
		String first = (sent != null && sent.hasMoreElements()) ? sent.nextElement() : null;
		String requestId = AccessLog.requestId(first);
		boolean asSent = requestId.equals(first) && !sent.hasMoreElements();
		request.setAttribute(REQUEST_ID_ATTRIBUTE, requestId);
		response.setHeader(AccessLog.REQUEST_ID_HEADER, requestId);
		HttpServletRequest forwarded = asSent ? request : new RequestIdRequest(request, requestId);
		if (!this.enabled || !AccessLog.isOn()) {
			// Off (GATEWAY_LOGGING_MODE=off, or the access logger's level set to OFF at
			// run time through the loggers endpoint): no timing, no line.
			chain.doFilter(forwarded, response);
			return;
		}
		long start = System.nanoTime();
		boolean failed = true;
		try {
			chain.doFilter(forwarded, response);
			failed = false;
		}
		finally {
			if (!failed && request.isAsyncStarted()) {
				request.getAsyncContext().addListener(new LogAtCompletion(request, response, requestId, start));
			}
			else {
				log(request, response, requestId, start, failed);
			}
		}
	}

	private static void log(HttpServletRequest request, HttpServletResponse response, String requestId, long start,
			boolean failed) {
		long micros = (System.nanoTime() - start) / 1_000;
		Object status;
		if (!failed) {
			status = response.getStatus();
		}
		else {
			// An exception left the chain: the server answers 500 unless the answer had
			// begun, which the client then gets cut off.
			status = response.isCommitted() ? "cancelled" : 500;
		}
		String client = request.getRemoteAddr();
		AccessLog.log(requestId, request.getMethod(), request.getRequestURI(), (client != null) ? client : "-", status,
				micros, null);
	}

	/** The line of a request the application finished asynchronously. */
	private static final class LogAtCompletion implements AsyncListener {

		private final HttpServletRequest request;

		private final HttpServletResponse response;

		private final String requestId;

		private final long start;

		LogAtCompletion(HttpServletRequest request, HttpServletResponse response, String requestId, long start) {
			this.request = request;
			this.response = response;
			this.requestId = requestId;
			this.start = start;
		}

		@Override
		public void onComplete(AsyncEvent event) {
			log(this.request, this.response, this.requestId, this.start, false);
		}

		@Override
		public void onTimeout(AsyncEvent event) {
		}

		@Override
		public void onError(AsyncEvent event) {
		}

		@Override
		public void onStartAsync(AsyncEvent event) {
			event.getAsyncContext().addListener(this);
		}

	}

}
