package dev.gatewaylab.gateway.logging;

import dev.gatewaylab.accesslog.webflux.ExchangeDetails;
import dev.gatewaylab.gateway.server.ClientConnections;
import dev.gatewaylab.gateway.server.RequestGuard;
import dev.gatewaylab.gateway.tracing.ExchangeTraces;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

/**
 * What the gateway's access-log line carries beyond the request: the status the server's
 * {@link RequestGuard} answered when it cut a request off, and the trace id with tracing
 * on.
 */
@Component
class GatewayExchangeDetails implements ExchangeDetails {

	@Override
	public @Nullable Integer refusedStatus(ServerWebExchange exchange) {
		return ClientConnections.clientErrorStatus(exchange.getRequest());
	}

	@Override
	public @Nullable String traceId(ServerWebExchange exchange) {
		return ExchangeTraces.traceId(exchange);
	}

}
