import java.net.InetSocketAddress;

import io.netty.handler.codec.http.HttpHeaderNames;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.ConnectionProvider;

/**
 * The floor under any Spring Cloud Gateway app: a reverse proxy on Reactor Netty alone (the server and client a
 * WebFlux gateway runs on), with nothing else — no Spring, no routes, no filters, no log, no metrics, no timeouts.
 * Forwards every request to one upstream over a pooled keep-alive connection with the client's headers (Host
 * replaced, X-Forwarded-For added) and streams the upstream's status, headers and body back.
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
			.handle((request, response) -> client
				.headers((headers) -> headers.add(request.requestHeaders())
					.remove(HttpHeaderNames.HOST)
					.set("X-Forwarded-For", ((InetSocketAddress) request.remoteAddress()).getAddress().getHostAddress()))
				.request(request.method())
				.uri(request.uri())
				.send(request.receive().retain())
				.response((upstreamResponse, body) -> response.status(upstreamResponse.status())
					.headers(upstreamResponse.responseHeaders())
					.send(body.retain())))
			.bindNow();
		System.out.println("reactor-netty floor proxy on 127.0.0.1:" + port + " -> " + upstream);
		server.onDispose().block();
	}

}
