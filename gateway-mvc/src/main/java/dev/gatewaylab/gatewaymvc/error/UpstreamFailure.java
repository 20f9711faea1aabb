package dev.gatewaylab.gatewaymvc.error;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.TimeoutException;

import dev.gatewaylab.servlet.BodyTooLargeException;

import org.springframework.http.HttpStatus;

/**
 * What went wrong with an upstream call, read from the exception the client threw (the
 * {@code RestClient} wraps the JDK's in a {@code ResourceAccessException}): the status a
 * proxy answers it with, as the WebFlux gateway does — 503 when the upstream cannot be
 * reached (refused, no route, unknown host, connect timeout), 504 when it is slower than
 * the route's response timeout, 502 when the connection broke before a response.
 */
public enum UpstreamFailure {

	/** Refused, unreachable, or no connection within the connect timeout. */
	UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "Upstream unavailable", "The upstream service could not be reached."),

	/** No response within the route's response timeout. */
	TIMEOUT(HttpStatus.GATEWAY_TIMEOUT, "Upstream timeout",
			"The upstream service did not respond within the route's response timeout."),

	/** The connection broke before a response came. */
	DROPPED(HttpStatus.BAD_GATEWAY, "Bad gateway", "The upstream service closed the connection before responding.");

	private final HttpStatus status;

	private final String title;

	private final String detail;

	UpstreamFailure(HttpStatus status, String title, String detail) {
		this.status = status;
		this.title = title;
		this.detail = detail;
	}

	public HttpStatus status() {
		return this.status;
	}

	public String title() {
		return this.title;
	}

	public String detail() {
		return this.detail;
	}

	/**
	 * The failure an exception of an upstream call stands for, or null when it is none (a
	 * request body over the limit is the client's: {@link BodyTooLargeException}).
	 */
	public static UpstreamFailure of(Throwable ex) {
		boolean io = false;
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof BodyTooLargeException) {
				return null;
			}
			if (cause instanceof ConnectException || cause instanceof NoRouteToHostException
					|| cause instanceof UnknownHostException || cause instanceof HttpConnectTimeoutException) {
				return UNAVAILABLE;
			}
			if (cause instanceof HttpTimeoutException || cause instanceof SocketTimeoutException
					|| cause instanceof TimeoutException) {
				return TIMEOUT;
			}
			io |= cause instanceof IOException;
		}
		return io ? DROPPED : null;
	}

}
