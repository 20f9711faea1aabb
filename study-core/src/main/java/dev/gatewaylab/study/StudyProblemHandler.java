package dev.gatewaylab.study;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.gatewaylab.servlet.BodyTooLargeException;
import dev.gatewaylab.servlet.TraceIds;
import jakarta.servlet.http.HttpServletRequest;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import tools.jackson.core.JacksonException;

import org.springframework.beans.TypeMismatchException;
import org.springframework.context.MessageSource;
import org.springframework.context.i18n.LocaleContextHolder;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.Errors;
import org.springframework.validation.method.ParameterErrors;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.async.AsyncRequestNotUsableException;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.multipart.MultipartException;

/**
 * Turns every error of an API request into RFC 9457 {@code application/problem+json};
 * 400s name each bad field in an {@code errors} array of {@code {field, message}}.
 * <p>
 * Not a {@code ResponseEntityExceptionHandler}: that class's entry point is final and
 * handles every request of the host application, but this library must leave the
 * monolith's HTML pages to the app's own error handling. So API requests (path
 * {@code /api/...}, or a client that does not ask for HTML) are answered here and the
 * rest rethrown, which lets Spring MVC carry on as if this advice did not exist. Spring's
 * own {@link ErrorResponse} bodies are reused so that 404/405/415/... read the same as
 * with Spring's handler. With tracing on, every body carries the request's
 * {@code traceId}.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
class StudyProblemHandler {

	private static final Log logger = LogFactory.getLog(StudyProblemHandler.class);

	private final MessageSource messageSource;

	StudyProblemHandler(MessageSource messageSource) {
		this.messageSource = messageSource;
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> handle(Exception ex, HttpServletRequest request) throws Exception {
		ResponseEntity<ProblemDetail> answer = answer(ex, request);
		String traceId = TraceIds.of(request);
		if (traceId != null && answer.getBody() != null) {
			answer.getBody().setProperty(TraceIds.PROPERTY, traceId);
		}
		return answer;
	}

	private ResponseEntity<ProblemDetail> answer(Exception ex, HttpServletRequest request) throws Exception {
		if (!isApiRequest(request) || ex instanceof AsyncRequestNotUsableException) {
			throw ex;
		}
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof BodyTooLargeException tooLarge) {
				return ResponseEntity.status(HttpStatus.PAYLOAD_TOO_LARGE)
					.header(HttpHeaders.CONNECTION, "close")
					.body(ProblemDetail.forStatusAndDetail(HttpStatus.PAYLOAD_TOO_LARGE,
							"The request body is larger than " + tooLarge.maxBytes() + " bytes."));
			}
		}
		if (ex.getClass().getName().equals("org.apache.tomcat.util.http.InvalidParameterException")) {
			// a form-encoded body with broken %-escapes,
			// read by Tomcat when something asks for parameters
			return badRequest(problem("Malformed form parameters"), List.of());
		}
		if (ex instanceof MultipartException) {
			// multipart/form-data to a JSON API,
			// with a body that is not even valid multipart
			return ResponseEntity.status(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
				.body(ProblemDetail.forStatusAndDetail(HttpStatus.UNSUPPORTED_MEDIA_TYPE,
						"Content-Type must be application/json"));
		}
		if (ex instanceof IllegalArgumentException && ex.getMessage() != null
				&& ex.getMessage().startsWith("Content-Type")) {
			// e.g. "Content-Type cannot contain wildcard type '*'"
			// from parsing the request's content type
			return ResponseEntity.status(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
				.body(ProblemDetail.forStatusAndDetail(HttpStatus.UNSUPPORTED_MEDIA_TYPE,
						"Content-Type must be application/json"));
		}
		if (ex instanceof MethodArgumentNotValidException invalid) {
			return badRequest(invalid.getBody(), fieldErrors(invalid.getBindingResult()));
		}
		if (ex instanceof HandlerMethodValidationException invalid) {
			return badRequest(invalid.getBody(), parameterErrors(invalid));
		}
		if (ex instanceof ErrorResponse response) {
			ProblemDetail body = response.updateAndGetBody(this.messageSource, LocaleContextHolder.getLocale());
			return ResponseEntity.status(response.getStatusCode()).headers(response.getHeaders()).body(body);
		}
		if (ex instanceof TypeMismatchException mismatch) {
			String field = (mismatch.getPropertyName() != null) ? mismatch.getPropertyName() : "value";
			String type = (mismatch.getRequiredType() != null) ? mismatch.getRequiredType().getSimpleName() : "value";
			return badRequest(problem("Invalid value for '" + field + "'"),
					List.of(new InvalidField(field, "must be a valid " + type)));
		}
		if (ex instanceof HttpMessageNotReadableException unreadable) {
			return badRequest(problem("Malformed JSON or a value of the wrong type"), readErrors(unreadable));
		}
		if (ex instanceof DataIntegrityViolationException) {
			// e.g. a NUL character in a text field, which PostgreSQL refuses.
			logger.debug("Rejected by the database", ex);
			return badRequest(problem("The database rejected a value of this request"), List.of());
		}
		logger.error("Unexpected error for " + request.getMethod() + " " + request.getRequestURI(), ex);
		return ResponseEntity.internalServerError()
			.body(ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR, "Unexpected server error"));
	}

	private static boolean isApiRequest(HttpServletRequest request) {
		String path = request.getRequestURI().substring(request.getContextPath().length());
		if (path.equals("/api") || path.startsWith("/api/")) {
			return true;
		}
		String accept = request.getHeader(HttpHeaders.ACCEPT);
		return accept == null || !accept.contains("text/html");
	}

	private static ProblemDetail problem(String detail) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, detail);
	}

	private static ResponseEntity<ProblemDetail> badRequest(ProblemDetail body, List<InvalidField> errors) {
		if (!errors.isEmpty()) {
			List<InvalidField> sorted = new ArrayList<>(errors);
			sorted.sort(Comparator.comparing(InvalidField::field).thenComparing(InvalidField::message));
			body.setProperty("errors", sorted);
		}
		return ResponseEntity.badRequest().body(body);
	}

	private static List<InvalidField> fieldErrors(Errors result) {
		List<InvalidField> errors = new ArrayList<>();
		result.getFieldErrors()
			.forEach((error) -> errors.add(new InvalidField(error.getField(), error.getDefaultMessage())));
		result.getGlobalErrors()
			.forEach((error) -> errors.add(new InvalidField(error.getObjectName(), error.getDefaultMessage())));
		return errors;
	}

	private static List<InvalidField> parameterErrors(HandlerMethodValidationException ex) {
		List<InvalidField> errors = new ArrayList<>();
		ex.getParameterValidationResults().forEach((result) -> {
			if (result instanceof ParameterErrors bean) {
				errors.addAll(fieldErrors(bean));
			}
			else {
				String name = result.getMethodParameter().getParameterName();
				result.getResolvableErrors()
					.forEach((error) -> errors.add(new InvalidField(name, error.getDefaultMessage())));
			}
		});
		return errors;
	}

	/**
	 * Names the offending JSON property when Jackson knows it (wrong type, number too
	 * large).
	 */
	private static List<InvalidField> readErrors(HttpMessageNotReadableException ex) {
		if (ex.getCause() instanceof JacksonException jackson && !jackson.getPath().isEmpty()) {
			StringBuilder field = new StringBuilder();
			for (JacksonException.Reference reference : jackson.getPath()) {
				if (reference.getPropertyName() != null) {
					field.append((field.length() > 0) ? "." : "").append(reference.getPropertyName());
				}
				else if (reference.getIndex() >= 0) {
					field.append('[').append(reference.getIndex()).append(']');
				}
			}
			if (field.length() > 0) {
				return List.of(new InvalidField(field.toString(), "has a value of the wrong type or out of range"));
			}
		}
		return List.of();
	}

}
