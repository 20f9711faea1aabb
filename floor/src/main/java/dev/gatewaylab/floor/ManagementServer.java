package dev.gatewaylab.floor;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmCompilationMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The floor's management port, the paths the lab reads on every service:
 * {@code /actuator/health/readiness} and {@code /actuator/health/liveness} (the lab's
 * readiness check) and {@code /actuator/prometheus} with the JVM's meters — JIT compile
 * time ({@code jvm_compilation_time_ms_total}) and GC pauses, which the runner's warm-up
 * reads to tell when a JVM is steady — tagged {@code application="floor"}. Nothing is
 * measured per request. The JDK's own HTTP server on one thread of its own: the proxy's
 * event loops serve proxy traffic only.
 */
final class ManagementServer implements AutoCloseable {

	static final String APPLICATION = "floor";

	private final HttpServer server;

	private final ExecutorService thread = Executors.newSingleThreadExecutor((r) -> {
		Thread t = new Thread(r, "floor-management");
		t.setDaemon(true);
		return t;
	});

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private final JvmGcMetrics gc = new JvmGcMetrics();

	private final BooleanSupplier ready;

	/** Binds {@code address:port} (0: any free port); {@code ready}: the proxy is up. */
	ManagementServer(String address, int port, BooleanSupplier ready) throws IOException {
		this.ready = ready;
		this.registry.config().commonTags("application", APPLICATION);
		List.of(new JvmCompilationMetrics(), this.gc, new JvmMemoryMetrics(), new JvmThreadMetrics(),
				new ClassLoaderMetrics(), new ProcessorMetrics(), new UptimeMetrics())
			.forEach((binder) -> binder.bindTo(this.registry));
		this.server = HttpServer.create(new InetSocketAddress(address, port), 50);
		this.server.setExecutor(this.thread);
		this.server.createContext("/", this::handle);
		this.server.start();
	}

	int port() {
		return this.server.getAddress().getPort();
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			String path = exchange.getRequestURI().getPath();
			if (!"GET".equals(exchange.getRequestMethod())) {
				send(exchange, 405, "application/problem+json", problem(405, "Method Not Allowed", "use GET"));
			}
			else if (path.equals("/actuator/prometheus")) {
				send(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", this.registry.scrape());
			}
			else if (path.equals("/actuator/health/readiness") || path.equals("/actuator/health")) {
				boolean up = this.ready.getAsBoolean();
				send(exchange, up ? 200 : 503, "application/json",
						"{\"status\":\"" + (up ? "UP" : "OUT_OF_SERVICE") + "\"}");
			}
			else if (path.equals("/actuator/health/liveness")) {
				send(exchange, 200, "application/json", "{\"status\":\"UP\"}");
			}
			else {
				send(exchange, 404, "application/problem+json", problem(404, "Not Found",
						"the floor's management port serves /actuator/health/readiness and /actuator/prometheus"));
			}
		}
	}

	private static String problem(int status, String title, String detail) {
		return "{\"title\":\"" + title + "\",\"status\":" + status + ",\"detail\":\"" + detail + "\"}";
	}

	private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", type);
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.thread.shutdownNow();
		this.gc.close();
		this.registry.close();
	}

}
