import java.net.InetSocketAddress;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.ConnectionProvider;

/**
 * The floor under any Spring Cloud Gateway app: a reverse proxy on Reactor Netty alone (the server and client a
 * WebFlux gateway runs on), with nothing else — no Spring, no routes, no filters, no log, no metrics, no timeouts.
 * Forwards every request to one upstream over a pooled keep-alive connection with the client's headers (Host
 * replaced, X-Forwarded-For added) and sends the upstream's status, headers and body back — a body of up to 64 KiB
 * with a Content-Length in one write with its headers, as the gateway does, a larger or unsized one streamed.
 * Measurement only (bench/floor.sh): java -cp LIBS -Dreactor.netty.ioWorkerCount=1 ReactorNettyProxy.java PORT UPSTREAM
 */
public class ReactorNettyProxy {

	public static void main(String[] args) {
		int port = Integer.parseInt(args[0]);
		String upstream = args[1];
		HttpClient client = HttpClient
			.create(ConnectionProvider.builder("floor").maxConnections(500).pendingAcquireMaxCount(-1).build())
			.baseUrl(upstream);
		DisposableServer server = HttpServer.create()
			.host("127.0.0.1")
			.port(port)
			.handle((request, response) -> client.request(request.method())
				.uri(request.uri())
				.send((upstreamRequest, outbound) -> {
					// The client's headers set once on the request (as the gateway does), keeping Reactor Netty's Host.
					HttpHeaders headers = upstreamRequest.requestHeaders();
					String host = headers.get(HttpHeaderNames.HOST);
					headers.set(request.requestHeaders())
						.set(HttpHeaderNames.HOST, host)
						.set("X-Forwarded-For",
								((InetSocketAddress) request.remoteAddress()).getAddress().getHostAddress());
					return outbound.send(request.receive().retain());
				})
				.response((upstreamResponse, body) -> {
					response.status(upstreamResponse.status()).headers(upstreamResponse.responseHeaders());
					// As the gateway's ResponseWriteFilter: a small body with a Content-Length leaves with its headers
					// in one write (Reactor Netty sends a Mono body as one full response); anything else streams.
					long length = contentLength(upstreamResponse.responseHeaders());
					return (length >= 0 && length <= 64 * 1024) ? response.send(body.aggregate().retain())
							: response.send(body.retain());
				}))
			.bindNow();
		System.out.println("reactor-netty floor proxy on 127.0.0.1:" + port + " -> " + upstream);
		server.onDispose().block();
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
