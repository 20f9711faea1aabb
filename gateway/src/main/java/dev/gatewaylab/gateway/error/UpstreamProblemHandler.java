package dev.gatewaylab.gateway.error;

import dev.gatewaylab.gateway.feature.Feature;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.PrematureCloseException;

import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.codec.HttpMessageWriter;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.stereotype.Component;
import org.springframework.web.ErrorResponse;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.reactive.result.view.ViewResolver;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;

import dev.gatewaylab.gateway.server.ClientConnections;
import dev.gatewaylab.gateway.tracing.ExchangeTraces;

/**
 * Answers every failure the gateway itself produces with
 * {@code application/problem+json}, using the status codes proxies are expected to use:
 * 503 when the upstream refuses or cannot be reached (Spring Cloud Gateway's default is a
 * 500), 502 when it closes the connection mid-response, 504 when it is slower than the
 * route's response timeout. Runs before Spring Boot's default handler, which would render
 * HTML or a 500 body. With tracing on, the body carries the request's {@code traceId}.
 */
@Component
@Order(-2)
class UpstreamProblemHandler implements WebExceptionHandler, Feature {

	private static final Logger logger = LoggerFactory.getLogger(UpstreamProblemHandler.class);

	private final ServerResponse.Context context;

	UpstreamProblemHandler(ServerCodecConfigurer codecs) {
		this.context = new ServerResponse.Context() {
			@Override
			public List<HttpMessageWriter<?>> messageWriters() {
				return codecs.getWriters();
			}

			@Override
			public List<ViewResolver> viewResolvers() {
				return List.of();
			}
		};
	}

	@Override
	public Mono<Void> handle(ServerWebExchange exchange, Throwable ex) {
		if (ClientConnections.clientErrorStatus(exchange.getRequest()) != null) {
			// The server's RequestGuard already answered (400/408) and closed the
			// connection: the client's fault, nothing more to write or log.
			exchange.getResponse()
				.setStatusCode(HttpStatus.valueOf(ClientConnections.clientErrorStatus(exchange.getRequest())));
			return Mono.empty();
		}
		if (ClientConnections.clientGone(exchange.getRequest())) {
			// The client hung up (mid-body, the guard's 400 above, or while the upstream
			// was answering): its doing, and no answer can reach it.
			if (logger.isDebugEnabled()) {
				logger.debug("{} {}: client gone: {}", exchange.getRequest().getMethod(),
						exchange.getRequest().getPath().value(), ex.toString());
			}
			return Mono.empty();
		}
		if (exchange.getResponse().isCommitted()) {
			return Mono.error(ex);
		}
		ProblemDetail problem = problemFor(ex);
		problem.setInstance(URI.create(exchange.getRequest().getPath().value()));
		String traceId = ExchangeTraces.traceId(exchange);
		if (traceId != null) {
			problem.setProperty(ExchangeTraces.PROPERTY, traceId);
		}
		if (problem.getStatus() >= 500) {
			logger.warn("{} {} -> {}: {}", exchange.getRequest().getMethod(), exchange.getRequest().getPath().value(),
					problem.getStatus(), ex.toString());
		}
		return ServerResponse.status(problem.getStatus())
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.bodyValue(problem)
			.flatMap((response) -> response.writeTo(exchange, this.context));
	}

	static ProblemDetail problemFor(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof ConnectException || cause instanceof NoRouteToHostException
					|| cause instanceof UnknownHostException) {
				return problem(HttpStatus.SERVICE_UNAVAILABLE, "Upstream unavailable",
						"The upstream service could not be reached.");
			}
			if (cause instanceof PrematureCloseException) {
				return problem(HttpStatus.BAD_GATEWAY, "Bad gateway",
						"The upstream service closed the connection before responding.");
			}
			if (cause instanceof TimeoutException) {
				return problem(HttpStatus.GATEWAY_TIMEOUT, "Upstream timeout",
						"The upstream service did not respond within the route's response timeout.");
			}
		}
		if (ex instanceof ErrorResponse error) {
			HttpStatusCode status = error.getStatusCode();
			if (status.value() == HttpStatus.GATEWAY_TIMEOUT.value()) {
				return problem(HttpStatus.GATEWAY_TIMEOUT, "Upstream timeout",
						"The upstream service did not respond within the route's response timeout.");
			}
			ProblemDetail body = error.getBody();
			ProblemDetail problem = ProblemDetail.forStatus(status);
			problem.setTitle(body.getTitle());
			// Client errors say what was wrong; server errors never leak internals.
			problem.setDetail(status.is4xxClientError() ? body.getDetail() : null);
			return problem;
		}
		return problem(HttpStatus.INTERNAL_SERVER_ERROR, "Internal error", null);
	}

	private static ProblemDetail problem(HttpStatus status, String title, String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setTitle(title);
		return problem;
	}

	@Override
	public String feature() {
		return "problem+json errors (503/502/504 for upstream failures)";
	}

}
