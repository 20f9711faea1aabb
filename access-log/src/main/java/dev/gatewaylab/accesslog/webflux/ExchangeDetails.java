package dev.gatewaylab.accesslog.webflux;

import org.jspecify.annotations.Nullable;

import org.springframework.web.server.ServerWebExchange;

/**
 * What an application knows about an exchange that its access-log line should carry; a
 * bean of this type is used when there is one.
 */
public interface ExchangeDetails {

	/**
	 * The status the server answered itself when it cut the exchange off (a malformed or
	 * stalled request refused below the application), or null.
	 */
	default @Nullable Integer refusedStatus(ServerWebExchange exchange) {
		return null;
	}

	/** The exchange's trace id when tracing is on, or null. */
	default @Nullable String traceId(ServerWebExchange exchange) {
		return null;
	}

}
