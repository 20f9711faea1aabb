package dev.gatewaylab.gateway.tracing;

import java.util.List;

import io.netty.util.AsciiString;
import reactor.netty.http.server.HttpServerRequest;

import org.springframework.boot.webflux.autoconfigure.WebHttpHandlerBuilderCustomizer;
import org.springframework.http.server.reactive.AbstractServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;

import dev.gatewaylab.gateway.clientip.ClientIpResolver;

/**
 * A trace context arriving with a request is adopted only from a trusted proxy
 * ({@code gateway.trusted-proxies}, the rule of {@code X-Forwarded-For}). From any other
 * socket peer its headers — W3C {@code traceparent}, {@code tracestate} and
 * {@code baggage}, B3 single ({@code b3}) and multi ({@code X-B3-*}), what Spring Boot's
 * tracing accepts — are removed before anything reads them: the server observation
 * (started by WebFlux's {@code HttpWebHandlerAdapter}, before any web filter) finds none,
 * starts a new trace and lets the sampler decide, and the upstream gets the gateway's own
 * {@code traceparent} (or none, tracing off), never the client's. Otherwise a client
 * could choose its trace ids and force 100 % sampling, in the gateway and behind it.
 * <p>
 * A decorator of the server's {@code HttpHandler}, around the adapter that starts the
 * observation; the headers are removed from Reactor Netty's request in place (no copy).
 * Tracing on or off alike: the upstreams trust what the gateway sends them. Cost per
 * request: the peer check ({@link ClientIpResolver#isTrustedPeer}); from an untrusted
 * peer also one lookup per header name.
 */
@Component
class TrustedTraceContext implements WebHttpHandlerBuilderCustomizer {

	/** The trace-context headers a client may not set. */
	static final List<String> HEADERS = List.of("traceparent", "tracestate", "baggage", "b3", "X-B3-TraceId",
			"X-B3-SpanId", "X-B3-ParentSpanId", "X-B3-Sampled", "X-B3-Flags");

	/** The same as Netty names: their hash codes are computed once. */
	private static final AsciiString[] NETTY_NAMES = HEADERS.stream()
		.map(AsciiString::cached)
		.toArray(AsciiString[]::new);

	private final ClientIpResolver clientIp;

	TrustedTraceContext(ClientIpResolver clientIp) {
		this.clientIp = clientIp;
	}

	@Override
	public void customize(WebHttpHandlerBuilder builder) {
		builder.httpHandlerDecorator((handler) -> (request, response) -> handler.handle(trusted(request), response));
	}

	/**
	 * The request, without a trace context unless its peer is a trusted proxy.
	 */
	ServerHttpRequest trusted(ServerHttpRequest request) {
		if (this.clientIp.isTrustedPeer(request.getRemoteAddress())) {
			return request;
		}
		if (request instanceof AbstractServerHttpRequest nativeHolder
				&& nativeHolder.getNativeRequest() instanceof HttpServerRequest netty) {
			io.netty.handler.codec.http.HttpHeaders headers = netty.requestHeaders();
			for (AsciiString name : NETTY_NAMES) {
				headers.remove(name);
			}
			return request;
		}
		// Any other server: a copy without them, when there is something to remove.
		if (HEADERS.stream().noneMatch(request.getHeaders()::containsHeader)) {
			return request;
		}
		return request.mutate().headers((headers) -> HEADERS.forEach(headers::remove)).build();
	}

}
