package dev.gatewaylab.servlet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.autoconfigure.web.ErrorProperties;
import org.springframework.boot.webmvc.autoconfigure.error.BasicErrorController;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorViewResolver;
import org.springframework.boot.webmvc.error.ErrorAttributes;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.servlet.ModelAndView;

/**
 * Spring Boot's {@code /error} page, answered as {@code application/problem+json}: what a
 * request that failed before (or outside) the app's own exception handling gets — a 404
 * for an unmapped path, a servlet-level 400, and {@code GET /error} itself (Boot answered
 * 500 with {@code "status":999}; there is no such resource: 404, for the HTML page too).
 * HTML pages only when the host app has them
 * ({@code servlet-hardening.error.html-pages=true}, the monolith) and the request is not
 * an API one ({@code /api/...}). Server errors carry no detail. With tracing on, the body
 * carries the request's {@code traceId}.
 */
class ProblemErrorController extends BasicErrorController {

	private final boolean htmlPages;

	ProblemErrorController(ErrorAttributes errorAttributes, List<ErrorViewResolver> viewResolvers, boolean htmlPages) {
		super(errorAttributes, new ErrorProperties(), viewResolvers);
		this.htmlPages = htmlPages;
	}

	@Override
	public ModelAndView errorHtml(HttpServletRequest request, HttpServletResponse response) {
		if (this.htmlPages && !isApi(request)) {
			if (request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) == null) {
				// GET /error asked for directly: no such page
				// (Boot's view had no status to show and answered 500)
				request.setAttribute(RequestDispatcher.ERROR_STATUS_CODE, HttpStatus.NOT_FOUND.value());
			}
			return super.errorHtml(request, response);
		}
		HttpStatus status = statusOf(request);
		Map<String, Object> problem = problem(status, request);
		StringBuilder json = new StringBuilder("{");
		problem.forEach((key, value) -> json.append((json.length() > 1) ? "," : "")
			.append('"')
			.append(key)
			.append("\":")
			.append((value instanceof Integer) ? value.toString() : "\"" + value + "\""));
		response.setStatus(status.value());
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		try {
			response.getOutputStream().write(json.append('}').toString().getBytes(StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			// the client went away
		}
		return null; // handled: no view
	}

	@Override
	public ResponseEntity<Map<String, Object>> error(HttpServletRequest request) {
		HttpStatus status = statusOf(request);
		return ResponseEntity.status(status)
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.body(problem(status, request));
	}

	/**
	 * Only fixed text and the trace id (hex digits), no request data: it needs no
	 * escaping.
	 */
	private static Map<String, Object> problem(HttpStatus status, HttpServletRequest request) {
		Map<String, Object> problem = new LinkedHashMap<>();
		problem.put("type", "about:blank");
		problem.put("title", status.getReasonPhrase());
		problem.put("status", status.value());
		String traceId = TraceIds.of(request);
		if (traceId != null) {
			problem.put(TraceIds.PROPERTY, traceId);
		}
		return problem;
	}

	private HttpStatus statusOf(HttpServletRequest request) {
		if (request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) == null) {
			return HttpStatus.NOT_FOUND; // GET /error asked for directly
		}
		HttpStatus status = getStatus(request);
		return (status.value() == 999) ? HttpStatus.NOT_FOUND : status;
	}

	private static boolean isApi(HttpServletRequest request) {
		Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
		String path = (uri != null) ? uri.toString() : request.getRequestURI();
		return path.equals("/api") || path.startsWith("/api/");
	}

}
