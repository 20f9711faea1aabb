package dev.gatewaylab.runner.report;

import dev.gatewaylab.runner.result.SweepResult;
import dev.gatewaylab.runner.stats.Percentiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sweep report's sections (sweep.md, sweep.html) and the terminal table, from a
 * {@link SweepResult}.
 */
public final class SweepReport {

	private static final List<String> HEADER = List.of("target", "threads", "samples", "TPS", "AVG ms", "MIN ms",
			"MAX ms", "p99 ms", "p50 µs", "p99 µs", "p99.9 µs", "success");

	private SweepReport() {
	}

	/** Writes sweep.json, sweep.md and sweep.html into {@code dir}. */
	public static void write(Path dir, SweepResult sweep) throws IOException {
		sweep.write(dir.resolve("sweep.json"));
		Document doc = document(sweep);
		Files.writeString(dir.resolve("sweep.md"), MarkdownWriter.write(doc));
		Files.writeString(dir.resolve("sweep.html"), HtmlWriter.write(doc));
	}

	public static String table(SweepResult sweep) {
		return MarkdownWriter.table(HEADER, rows(sweep));
	}

	public static Document document(SweepResult sweep) {
		Document doc = new Document("Gateway Lab sweep");
		doc.text("Closed model: each level is a fixed number of users for " + sweep.settings().get("duration_s")
				+ " s (one run per level, after a warm-up); TPS ≈ users ÷ latency until something saturates. Levels "
				+ "of a plan with a request line in lab.properties run on the latency generator (one keep-alive "
				+ "connection per user, response times in µs; " + Percentiles.rule() + "); others, and every "
				+ "level with --remote, on JMeter threads (whole ms, µs columns –).");
		Map<String, List<SweepResult.Point>> byTarget = new LinkedHashMap<>();
		sweep.points().forEach(p -> byTarget.computeIfAbsent(p.target(), k -> new ArrayList<>()).add(p));
		if (!byTarget.isEmpty()) {
			List<String> names = new ArrayList<>(byTarget.keySet());
			double[] xs = byTarget.values()
				.iterator()
				.next()
				.stream()
				.mapToDouble(SweepResult.Point::threads)
				.toArray();
			List<double[]> tps = byTarget.values()
				.stream()
				.map(l -> l.stream().mapToDouble(SweepResult.Point::tps).toArray())
				.toList();
			List<double[]> p99 = byTarget.values()
				.stream()
				.map(l -> l.stream().mapToDouble(SweepReport::p99Ms).toArray())
				.toList();
			doc.chart(Svg.lines("TPS vs concurrency", "threads", "req/s", names, tps, xs));
			doc.chart(Svg.lines("p99 vs concurrency", "threads", "ms", names, p99, xs));
		}
		doc.heading("Results").table(HEADER, rows(sweep));
		BenchReport.engines(doc, sweep.engines(), "every level");
		if (sweep.warnings() != null && !sweep.warnings().isEmpty()) {
			doc.heading("Warnings").warnings(sweep.warnings());
		}
		if (sweep.warmup() != null && !sweep.warmup().isEmpty()) {
			doc.heading("Warm-up")
				.items(sweep.warmup()
					.entrySet()
					.stream()
					.map(e -> e.getKey() + ": " + BenchReport.warmup(e.getValue()))
					.toList());
		}
		doc.heading("Settings").items(BenchReport.keyValues(sweep.settings()));
		return doc;
	}

	private static List<List<String>> rows(SweepResult sweep) {
		return sweep.points()
			.stream()
			.map(p -> List.of(p.target(), Integer.toString(p.threads()), Long.toString(p.samples()),
					Fmt.num(p.tps(), 1), Fmt.num(p.avgMs(), 2), Long.toString(p.minMs()), Long.toString(p.maxMs()),
					Fmt.ms(p.p99Ms()), us(p.p50Us()), us(p.p99Us()), us(p.p999Us()), Fmt.pct(p.successRate())))
			.toList();
	}

	/**
	 * A level's p99 in ms for the chart: from µs where the latency generator measured it,
	 * else JMeter's whole ms; NaN (no point) where it had too few samples for one.
	 */
	private static double p99Ms(SweepResult.Point p) {
		return p.p99Us() != null ? p.p99Us() / 1000 : p.p99Ms() != null ? p.p99Ms() : Double.NaN;
	}

	/**
	 * µs, or "–" for a level JMeter measured (whole ms) or one with too few samples for
	 * the percentile (Percentiles).
	 */
	private static String us(Double v) {
		return v == null ? "–" : Fmt.num(v, 0);
	}

}
