package dev.gatewaylab.runner.process;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * How much a JVM has compiled (JIT, ms) and paused for GC (ms) since it started: from an
 * app's Prometheus endpoint ({@code jvm_compilation_time_ms_total},
 * {@code jvm_gc_pause_seconds_sum}) or, for the runner itself, from its MX beans.
 * Differences between two readings tell whether a JVM is still warming up.
 */
public record JvmActivity(double compileMs, double gcPauseMs) {

	private static final String SCRAPE = "/actuator/prometheus?includedNames=jvm_compilation_time_ms,jvm_gc_pause_seconds";

	private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	/** The runner's own JVM (its embedded JMeter warms up too). */
	public static JvmActivity self() {
		var jit = ManagementFactory.getCompilationMXBean();
		double compile = jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime()
				: Double.NaN;
		double gc = 0;
		for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
			gc += Math.max(0, b.getCollectionTime());
		}
		return new JvmActivity(compile, gc);
	}

	/**
	 * Scrapes {@code <management>/actuator/prometheus}, the two metrics only; null when
	 * it cannot be read (then warm-up uses TPS only). The whole exposition (≈ 50 KB,
	 * every meter of the app) would run code in the app, once per reading, that its load
	 * never runs: the app's JIT would compile it reading by reading, and the warm-up
	 * would wait for the compiling its own readings cause.
	 */
	public static JvmActivity scrape(URI management) {
		try {
			HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create(management + SCRAPE))
				.timeout(Duration.ofSeconds(2))
				.GET()
				.build(), HttpResponse.BodyHandlers.ofString());
			return r.statusCode() == 200 ? parse(r.body()) : null;
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return null;
		}
		catch (Exception e) {
			return null;
		}
	}

	/**
	 * Sums the series of the two metrics in a Prometheus text exposition; null when
	 * compile time is absent.
	 */
	static JvmActivity parse(String text) {
		double compile = Double.NaN;
		double gc = 0;
		for (String line : text.split("\n")) {
			if (line.startsWith("jvm_compilation_time_ms_total")) {
				compile = (Double.isNaN(compile) ? 0 : compile) + value(line);
			}
			else if (line.startsWith("jvm_gc_pause_seconds_sum")) {
				gc += value(line) * 1000;
			}
		}
		return Double.isNaN(compile) ? null : new JvmActivity(compile, gc);
	}

	/**
	 * {@code name{labels} value [timestamp]}: label values may hold spaces, so read after
	 * the last brace.
	 */
	private static double value(String line) {
		int brace = line.lastIndexOf('}');
		String rest = (brace >= 0 ? line.substring(brace + 1) : line.substring(line.indexOf(' ') + 1)).trim();
		return Double.parseDouble(rest.split("\\s+")[0]);
	}

	public JvmActivity minus(JvmActivity earlier) {
		return new JvmActivity(compileMs - earlier.compileMs, gcPauseMs - earlier.gcPauseMs);
	}
}
