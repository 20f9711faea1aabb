package dev.gatewaylab.floor;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import reactor.netty.resources.ConnectionProvider;

/**
 * A reverse proxy on Reactor Netty alone — the server and client every Spring Cloud
 * Gateway (WebFlux) app runs on — with nothing else: no Spring, no routes, no filters, no
 * access log, no per-request metrics, no timeouts, no retries. Every request goes to one
 * upstream over a pooled keep-alive connection with the client's headers (Host replaced,
 * X-Forwarded-For added); the upstream's status, headers and body come back, a body of up
 * to 64 KiB with a Content-Length in one write with its headers (as the gateway's
 * ResponseWriteFilter does), a larger or unsized one streamed. An upstream that cannot be
 * reached gives 503, any other upstream failure before the response started 502.
 */
final class FloorProxy {

	/** Largest body sent in one write with its headers, as the gateway. */
	static final int ONE_WRITE_MAX_BYTES = 64 * 1024;

	/** Upstream connections, as the gateway's pool (GATEWAY_POOL_MAX_CONNECTIONS). */
	static final int MAX_CONNECTIONS = 500;

	private final HttpClient client;

	private final ConnectionProvider pool;

	FloorProxy(URI upstream) {
		this.pool = ConnectionProvider.builder("floor")
			.maxConnections(MAX_CONNECTIONS)
			.pendingAcquireMaxCount(-1)
			.build();
		this.client = HttpClient.create(this.pool).baseUrl(upstream.toString());
	}

	/** Binds the proxy's port (0: any free one) on every interface. */
	DisposableServer bind(int port) {
		return bind("", port);
	}

	/**
	 * Binds the proxy's port (0: any free one) on an address (empty: every interface).
	 */
	DisposableServer bind(String address, int port) {
		HttpServer server = HttpServer.create().port(port);
		return (address.isEmpty() ? server : server.host(address)).handle(this::forward).bindNow();
	}

	/** Closes the upstream connections (after the server is disposed). */
	void close() {
		this.pool.dispose();
	}

	private Mono<Void> forward(HttpServerRequest request, HttpServerResponse response) {
		return this.client.request(request.method()).uri(request.uri()).send((upstreamRequest, outbound) -> {
			// The client's headers set once on the request (as the gateway does),
			// keeping Reactor Netty's Host.
			HttpHeaders headers = upstreamRequest.requestHeaders();
			String host = headers.get(HttpHeaderNames.HOST);
			headers.set(request.requestHeaders())
				.set(HttpHeaderNames.HOST, host)
				.set("X-Forwarded-For", clientAddress(request.remoteAddress()));
			return outbound.send(request.receive().retain());
		}).response((upstreamResponse, body) -> {
			response.status(upstreamResponse.status()).headers(upstreamResponse.responseHeaders());
			long length = contentLength(upstreamResponse.responseHeaders());
			return (length >= 0 && length <= ONE_WRITE_MAX_BYTES) ? response.send(body.aggregate().retain())
					: response.send(body.retain());
		}).then().onErrorResume((ex) -> response.hasSentHeaders() ? Mono.error(ex) : failed(response, ex));
	}

	private static Mono<Void> failed(HttpServerResponse response, Throwable ex) {
		boolean unreachable = ex instanceof ConnectException || ex.getCause() instanceof ConnectException;
		HttpResponseStatus status = unreachable ? HttpResponseStatus.SERVICE_UNAVAILABLE
				: HttpResponseStatus.BAD_GATEWAY;
		String body = "{\"title\":\"" + status.reasonPhrase() + "\",\"status\":" + status.code() + ",\"detail\":\""
				+ (unreachable ? "the upstream cannot be reached" : "the upstream failed") + "\"}";
		return response.status(status)
			.header(HttpHeaderNames.CONTENT_TYPE, "application/problem+json")
			.sendString(Mono.just(body), StandardCharsets.UTF_8)
			.then();
	}

	private static String clientAddress(SocketAddress address) {
		return (address instanceof InetSocketAddress inet && inet.getAddress() != null)
				? inet.getAddress().getHostAddress() : "unknown";
	}

	private static long contentLength(HttpHeaders headers) {
		String value = headers.get(HttpHeaderNames.CONTENT_LENGTH);
		try {
			return (value != null) ? Long.parseLong(value.trim()) : -1;
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

}
