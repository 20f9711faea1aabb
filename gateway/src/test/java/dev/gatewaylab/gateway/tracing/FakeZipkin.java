package dev.gatewaylab.gateway.tracing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

import com.sun.net.httpserver.HttpServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Zipkin's span intake ({@code POST /api/v2/spans}, JSON v2) on a random loopback port,
 * keeping what it receives.
 */
final class FakeZipkin {

	private final HttpServer server;

	private final List<JsonNode> spans = new CopyOnWriteArrayList<>();

	FakeZipkin() {
		try {
			this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		JsonMapper json = JsonMapper.builder().build();
		this.server.createContext("/api/v2/spans", (exchange) -> {
			try {
				// the reporter gzips batches over a few KB, as a real Zipkin accepts
				InputStream body = "gzip".equals(exchange.getRequestHeaders().getFirst("Content-Encoding"))
						? new GZIPInputStream(exchange.getRequestBody()) : exchange.getRequestBody();
				json.readTree(body).forEach(this.spans::add);
				exchange.sendResponseHeaders(202, -1);
			}
			catch (RuntimeException ex) {
				exchange.sendResponseHeaders(400, -1);
			}
			finally {
				exchange.close();
			}
		});
		this.server.start();
	}

	List<JsonNode> all() {
		return this.spans;
	}

	String endpoint() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + "/api/v2/spans";
	}

	List<JsonNode> trace(String traceId) {
		List<JsonNode> trace = new ArrayList<>();
		for (JsonNode span : this.spans) {
			if (traceId.equals(span.path("traceId").asString())) {
				trace.add(span);
			}
		}
		return trace;
	}

}
