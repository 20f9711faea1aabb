package dev.gatewaylab.gateway.tracing;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.TracingObservationHandler.TracingContext;
import org.jspecify.annotations.Nullable;

import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.web.server.ServerWebExchange;

/**
 * The trace of a request through the gateway, read from the exchange — for the access-log
 * line and problem+json bodies ({@code traceId}). The gateway's server span is the
 * WebFlux server observation's, which tracing turns on ({@code TRACING_ENABLED}, see
 * application.yml); its context is an exchange attribute, so no thread-local and no
 * Reactor context propagation is needed to find it. Off: one attribute lookup that finds
 * nothing.
 * <p>
 * What the server's {@code RequestGuard} refuses (a malformed request line, headers or
 * body) is answered on the connection before any exchange exists: those answers carry no
 * trace id, as no span was started for them.
 */
public final class ExchangeTraces {

	/** The problem+json member. */
	public static final String PROPERTY = "traceId";

	private ExchangeTraces() {
	}

	public static @Nullable String traceId(ServerWebExchange exchange) {
		Object context = exchange.getAttribute(ServerRequestObservationContext.CURRENT_OBSERVATION_CONTEXT_ATTRIBUTE);
		if (!(context instanceof ServerRequestObservationContext observation)) {
			return null;
		}
		TracingContext tracing = observation.get(TracingContext.class);
		Span span = (tracing != null) ? tracing.getSpan() : null;
		return (span != null) ? span.context().traceId() : null;
	}

}
