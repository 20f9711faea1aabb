package dev.gatewaylab.gateway.tracing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * An upstream that remembers the {@code traceparent} and the headers of the last request
 * it served.
 */
final class TracedUpstream {

	private final DisposableServer server;

	private volatile String lastTraceparent = "";

	private volatile HttpHeaders lastHeaders = EmptyHttpHeaders.INSTANCE;

	private final List<String> traceIds = new CopyOnWriteArrayList<>();

	TracedUpstream() {
		this.server = HttpServer.create()
			.host("127.0.0.1")
			.port(0)
			.route((routes) -> routes.get("/api/studies/1", (request, response) -> {
				String traceparent = request.requestHeaders().get("traceparent");
				this.lastTraceparent = (traceparent != null) ? traceparent : "";
				this.lastHeaders = request.requestHeaders().copy();
				if (traceparent != null) {
					this.traceIds.add(traceparent.split("-")[1]);
				}
				return response.header("Content-Type", "application/json").sendString(Mono.just("{\"id\":1}"));
			}))
			.bindNow();
	}

	String url() {
		return "http://127.0.0.1:" + this.server.port();
	}

	/** The trace ids of every request served. */
	List<String> traceIds() {
		return this.traceIds;
	}

	String lastTraceparent() {
		return this.lastTraceparent;
	}

	HttpHeaders lastHeaders() {
		return this.lastHeaders;
	}

	static String deadUrl() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return "http://127.0.0.1:" + socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Points the gateway under test at this upstream for study-service, at a dead one for
	 * the monolith, and at {@code zipkin} for its spans.
	 */
	void register(DynamicPropertyRegistry registry, FakeZipkin zipkin) {
		registry.add("STUDY_SERVICE_URL", this::url);
		registry.add("MONOLITH_URL", TracedUpstream::deadUrl);
		registry.add("TRACING_ZIPKIN_ENDPOINT", zipkin::endpoint);
	}

}
