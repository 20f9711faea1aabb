package dev.gatewaylab.servlet;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.TracingObservationHandler.TracingContext;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * The trace id of a request, for its problem+json body ({@code traceId}): a user goes
 * from an error to its trace in Zipkin. Read from the request's server observation (a
 * request attribute, so it holds in filters, controllers and the error dispatch alike).
 * None when tracing is off ({@code TRACING_ENABLED}), and none for what Tomcat refuses
 * before any filter runs ({@link ProblemErrorReportValve}): no span exists for those.
 */
public final class TraceIds {

	/** The problem+json member. */
	public static final String PROPERTY = "traceId";

	private TraceIds() {
	}

	public static @Nullable String of(HttpServletRequest request) {
		TracingContext tracing = ServerHttpObservationFilter.findObservationContext(request)
			.map((context) -> context.<TracingContext>get(TracingContext.class))
			.orElse(null);
		Span span = (tracing != null) ? tracing.getSpan() : null;
		return (span != null) ? span.context().traceId() : null;
	}

}
