package dev.gatewaylab.servlet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.RequestDispatcher;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.tomcat.util.res.StringManager;

import org.springframework.http.HttpStatus;

/**
 * Tomcat's own error page (a request Tomcat refuses before Spring sees it: an encoded
 * slash, a bad escape, header fields over its limits) as {@code application/problem+json}
 * instead of Tomcat's HTML report. Installed as the host's error report valve by
 * {@link ServletHardeningAutoConfiguration} (and
 * {@link ManagementProblemErrorReportValve} on the management port). Header fields over
 * Tomcat's limits are 431, not Tomcat's 400, with a detail naming the limit; a request
 * line over the size limit is 414; a head that came too slowly
 * ({@link RequestHeadDeadlineProtocol}) is 408. Only fixed text and numbers, nothing from
 * the request; server errors carry no detail.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

	/** Tomcat's message for a request head over {@code maxHttpRequestHeaderSize}. */
	private static final String HEAD_TOO_LARGE = StringManager.getManager("org.apache.coyote.http11")
		.getString("iib.requestheadertoolarge.error");

	/**
	 * Tomcat's message for more header fields than {@code maxHeaderCount}, up to the
	 * number.
	 */
	private static final String TOO_MANY_HEADERS = prefix(
			StringManager.getManager("org.apache.tomcat.util.http").getString("headers.maxCountFail", "\u0000"));

	@Override
	protected void report(Request request, Response response, Throwable throwable) {
		int status = response.getStatus();
		if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
			return;
		}
		String detail = null;
		Throwable cause = (throwable != null) ? throwable
				: (Throwable) request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
		String message = (status == 400 && cause != null) ? String.valueOf(cause.getMessage()) : "";
		if (message.startsWith(TOO_MANY_HEADERS)) {
			status = HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE.value();
			detail = "The request has more than " + limit(request, "maxHeaderCount") + " header fields.";
		}
		else if (message.equals(HEAD_TOO_LARGE) && request.getCoyoteRequest().requestURI().isNull()) {
			status = HttpStatus.URI_TOO_LONG.value();
			detail = "The request line is longer than " + limit(request, "maxHttpRequestHeaderSize") + " bytes.";
		}
		else if (message.equals(HEAD_TOO_LARGE)) {
			status = HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE.value();
			detail = "The request line and header fields are larger than " + limit(request, "maxHttpRequestHeaderSize")
					+ " bytes.";
		}
		else if (status == 408 && request.getAttribute(RequestHeadDeadlineProtocol.TIMED_OUT) instanceof String late) {
			detail = late;
		}
		else if (status == 400) {
			detail = "The request line, target or header fields are malformed.";
		}
		HttpStatus known = HttpStatus.resolve(status);
		String body = "{\"type\":\"about:blank\""
				+ ((known != null) ? ",\"title\":\"" + known.getReasonPhrase() + "\"" : "") + ",\"status\":" + status
				+ ((detail != null && status < 500) ? ",\"detail\":\"" + detail + "\"" : "") + "}";
		byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
		try {
			response.setStatus(status);
			response.setContentType("application/problem+json");
			response.setContentLength(bytes.length);
			response.getOutputStream().write(bytes);
			response.finishResponse();
		}
		catch (IOException | IllegalStateException ex) {
			// the client went away, or the response was already used: nothing more to say
		}
	}

	/** The connector's limit, as Tomcat reads it (Boot's {@code server.*} settings). */
	private static String limit(Request request, String property) {
		Object value = request.getConnector().getProperty(property);
		return (value != null) ? value.toString() : "the configured";
	}

	private static String prefix(String message) {
		int placeholder = message.indexOf('\u0000');
		return (placeholder > 0) ? message.substring(0, placeholder) : message;
	}

}
