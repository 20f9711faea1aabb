package dev.gatewaylab.monolith.login;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

import dev.gatewaylab.servlet.TraceIds;

/**
 * The problem+json bodies the login's own guards answer with (the login limit, the
 * session cap): fixed text and the trace id only, nothing from the request.
 */
final class LoginProblems {

	private LoginProblems() {
	}

	static void write(HttpServletRequest request, HttpServletResponse response, HttpStatus status, String detail)
			throws IOException {
		String traceId = TraceIds.of(request);
		byte[] body = ("{\"type\":\"about:blank\",\"title\":\"" + status.getReasonPhrase() + "\",\"status\":"
				+ status.value() + ",\"detail\":\"" + detail + "\""
				+ ((traceId != null) ? ",\"" + TraceIds.PROPERTY + "\":\"" + traceId + "\"" : "") + "}")
			.getBytes(StandardCharsets.UTF_8);
		response.setStatus(status.value());
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.setContentLength(body.length);
		response.getOutputStream().write(body);
	}

}
