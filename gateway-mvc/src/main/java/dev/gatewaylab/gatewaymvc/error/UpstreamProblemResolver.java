package dev.gatewaylab.gatewaymvc.error;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import dev.gatewaylab.servlet.BodyTooLargeException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * Answers a failed upstream call with {@code application/problem+json} and the status a
 * proxy is expected to use ({@link UpstreamFailure}: 503, 504, 502 — the WebFlux
 * gateway's {@code UpstreamProblemHandler} answers, with the same bodies), and a chunked
 * request body that outgrew the body limit on its way upstream with 413, as the
 * servlet-hardening filter answers one whose length said so. First of the resolvers:
 * Spring MVC's own would answer these with a bare 500. Anything else is left to them (and
 * to the {@code /error} page, problem+json too).
 */
@Component
class UpstreamProblemResolver implements HandlerExceptionResolver, Ordered {

	private static final Logger logger = LoggerFactory.getLogger(UpstreamProblemResolver.class);

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	public ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response, Object handler,
			Exception ex) {
		BodyTooLargeException tooLarge = tooLarge(ex);
		UpstreamFailure failure = (tooLarge != null) ? null : UpstreamFailure.of(ex);
		if (tooLarge == null && failure == null) {
			return null;
		}
		if (response.isCommitted()) {
			// The answer had begun: nothing more can reach the client.
			return new ModelAndView();
		}
		String body;
		if (tooLarge != null) {
			response.setStatus(HttpStatus.PAYLOAD_TOO_LARGE.value());
			response.setHeader("Connection", "close"); // the rest of the body is not read
			body = "{\"type\":\"about:blank\",\"title\":\"Content Too Large\",\"status\":413,"
					+ "\"detail\":\"The request body is larger than " + tooLarge.maxBytes() + " bytes.\"}";
		}
		else {
			logger.warn("{} {} -> {}: {}", request.getMethod(), request.getRequestURI(), failure.status().value(),
					ex.getCause() != null ? ex.getCause().toString() : ex.toString());
			response.setStatus(failure.status().value());
			// The WebFlux gateway's body to the byte (its ProblemDetail as Jackson writes
			// it: members in alphabetical order, no "type" for about:blank).
			body = "{\"detail\":\"" + failure.detail() + "\",\"instance\":\"" + json(request.getRequestURI())
					+ "\",\"status\":" + failure.status().value() + ",\"title\":\"" + failure.title() + "\"}";
		}
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.setContentLength(bytes.length);
		try {
			response.getOutputStream().write(bytes);
		}
		catch (IOException clientGone) {
			// the client hung up: nothing to tell it
		}
		return new ModelAndView();
	}

	private static BodyTooLargeException tooLarge(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof BodyTooLargeException tooLarge) {
				return tooLarge;
			}
		}
		return null;
	}

	/** A JSON string's content: the path as the client sent it (still %-encoded). */
	static String json(String text) {
		StringBuilder out = new StringBuilder(text.length());
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '"' || c == '\\') {
				out.append('\\').append(c);
			}
			else if (c < 0x20) {
				out.append(String.format("\\u%04x", (int) c));
			}
			else {
				out.append(c);
			}
		}
		return out.toString();
	}

}
