package dev.gatewaylab.runner.metrics;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.jmeter.samplers.SampleResult;

/**
 * Live Prometheus metrics of the load generator, served on {@code host:port/metrics}
 * while a run is on: {@code runner_requests_total{target,plan,outcome}},
 * {@code runner_request_duration_seconds_bucket{target,plan,le}},
 * {@code runner_active_threads{target,plan}}, all with {@code application="runner"}.
 */
public final class LiveMetrics implements AutoCloseable {

	private static final Duration[] BUCKETS = { Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
			Duration.ofMillis(10), Duration.ofMillis(20), Duration.ofMillis(50), Duration.ofMillis(100),
			Duration.ofMillis(200), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2),
			Duration.ofSeconds(5), Duration.ofSeconds(10) };

	/** The default address of the endpoint. */
	public static final String LOOPBACK = "127.0.0.1";

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private final Map<String, Series> series = new ConcurrentHashMap<>();

	private HttpServer server;

	public LiveMetrics() {
		registry.config().commonTags("application", "runner");
	}

	/** {@link #start(String, int, PrintStream)} on loopback. */
	public int start(int port, PrintStream warnings) {
		return start(LOOPBACK, port, warnings);
	}

	/**
	 * Starts the HTTP endpoint on {@code host} alone ({@code --metrics-host}: loopback by
	 * default, 0.0.0.0 for every address). Port 0 means disabled (the registry still
	 * counts). A taken port gives a warning.
	 * @return the bound port, or -1 when not serving
	 */
	public int start(String host, int port, PrintStream warnings) {
		if (port <= 0) {
			return -1;
		}
		try {
			server = HttpServer.create(new InetSocketAddress(host, port), 16);
		}
		catch (IOException e) {
			warnings.println("warning: live metrics port " + port + " is not available (" + e.getMessage()
					+ "); the run continues without /metrics — free the port or pass --metrics-port 0");
			return -1;
		}
		server.createContext("/metrics", exchange -> {
			byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		server.start();
		return server.getAddress().getPort();
	}

	/**
	 * The endpoint's URL as this machine reaches it (loopback for the wildcard address).
	 */
	public static String url(String host, int port) {
		String h = host.equals("0.0.0.0") || host.equals("::") || host.equals("0:0:0:0:0:0:0:0") ? "localhost"
				: host.contains(":") ? "[" + host + "]" : host;
		return "http://" + h + ":" + port + "/metrics";
	}

	/** A sink for the samples of one (target, plan). */
	public Series series(String target, String plan) {
		return series.computeIfAbsent(target + "\u0000" + plan, k -> new Series(target, plan));
	}

	public String scrape() {
		return registry.scrape();
	}

	@Override
	public void close() {
		if (server != null) {
			server.stop(0);
			server = null;
		}
		registry.close();
	}

	/** Meters of one target/plan pair. */
	public final class Series {

		private final Counter success;

		private final Counter error;

		private final Timer duration;

		private final AtomicInteger activeThreads = new AtomicInteger();

		Series(String target, String plan) {
			Tags tags = Tags.of("target", target, "plan", plan);
			success = Counter.builder("runner.requests")
				.tags(tags)
				.tag("outcome", "success")
				.description("Samples completed by the load generator")
				.register(registry);
			error = Counter.builder("runner.requests")
				.tags(tags)
				.tag("outcome", "error")
				.description("Samples completed by the load generator")
				.register(registry);
			duration = Timer.builder("runner.request.duration")
				.tags(tags)
				.serviceLevelObjectives(BUCKETS)
				.description("Response time seen by the load generator")
				.register(registry);
			Gauge.builder("runner.active.threads", activeThreads, AtomicInteger::get)
				.tags(tags)
				.description("Active JMeter threads (all engines)")
				.register(registry);
		}

		public void record(SampleResult r) {
			(r.isSuccessful() ? success : error).increment();
			duration.record(r.getTime(), TimeUnit.MILLISECONDS);
			activeThreads.set(r.getAllThreads());
		}

		public void idle() {
			activeThreads.set(0);
		}

	}

}
