package dev.gatewaylab.runner.report;

import dev.gatewaylab.runner.result.CpuCost;
import dev.gatewaylab.runner.result.EngineResult;
import dev.gatewaylab.runner.result.Latency;
import dev.gatewaylab.runner.result.RepResult;
import dev.gatewaylab.runner.result.RunResult;
import dev.gatewaylab.runner.result.TargetResult;
import dev.gatewaylab.runner.result.WarmupResult;
import dev.gatewaylab.runner.stats.Percentiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The bench report's sections (report.md, report.html) and the terminal table, from a
 * {@link RunResult}.
 */
public final class BenchReport {

	private BenchReport() {
	}

	/** Writes run.json, report.md and report.html into {@code dir}. */
	public static void write(Path dir, RunResult run) throws IOException {
		run.write(dir.resolve("run.json"));
		Document doc = document(run);
		Files.writeString(dir.resolve("report.md"), MarkdownWriter.write(doc));
		Files.writeString(dir.resolve("report.html"), HtmlWriter.write(doc));
	}

	/** The results table printed on the terminal at the end of a run. */
	public static String table(List<TargetResult> targets) {
		return MarkdownWriter.table(RESULT_HEADER, targets.stream().map(BenchReport::resultRow).toList());
	}

	private static final List<String> RESULT_HEADER = List.of("target", "samples", "TPS (mean ± 95 % CI)", "TPS median",
			"avg ms", "min~max ms", "p50", "p90", "p99", "success");

	private static List<String> resultRow(TargetResult t) {
		return List.of(t.name(), Long.toString(t.samples()), Fmt.tps(t), Fmt.num(t.tpsMedian(), 1),
				Fmt.num(t.avgMs(), 2), t.minMs() + "~" + t.maxMs(), Fmt.ms(t.p50Ms()), Fmt.ms(t.p90Ms()),
				Fmt.ms(t.p99Ms()), Fmt.pct(t.successRate()));
	}

	private static void cpu(Document doc, List<TargetResult> ts) {
		Set<String> procs = new LinkedHashSet<>();
		ts.forEach(t -> {
			if (t.cpuUsPerRequest() != null) {
				procs.addAll(t.cpuUsPerRequest().keySet());
			}
		});
		if (procs.isEmpty()) {
			return;
		}
		List<String> header = new ArrayList<>(List.of("target"));
		procs.forEach(p -> header.add(p + " µs/req"));
		List<List<String>> rows = new ArrayList<>();
		for (TargetResult t : ts) {
			List<String> row = new ArrayList<>(List.of(t.name()));
			for (String p : procs) {
				CpuCost c = t.cpuUsPerRequest() == null ? null : t.cpuUsPerRequest().get(p);
				row.add(c == null ? "n/a" : Fmt.num(c.mean(), 1) + " ± " + Fmt.num(c.ci95(), 1));
			}
			rows.add(row);
		}
		doc.heading("CPU per request")
			.table(header, rows)
			.text("User + system CPU of each process over a measured "
					+ "repetition ÷ the requests of that repetition; mean ± 95 % CI over the repetitions. A process "
					+ "that does not serve the target still shows what it burnt meanwhile (e.g. the idle apps).");
	}

	private static void latency(Document doc, List<TargetResult> ts) {
		List<List<String>> rows = new ArrayList<>();
		for (TargetResult t : ts) {
			Latency l = t.openModel();
			if (l != null) {
				rows.add(List.of(t.name(), Fmt.num(l.rate(), 0), Fmt.num(l.achievedRate(), 1),
						Long.toString(l.samples()), Fmt.num(l.meanMs(), 2), Fmt.ms(l.p50Ms()), Fmt.ms(l.p90Ms()),
						Fmt.ms(l.p99Ms()), Fmt.ms(l.p999Ms()), Long.toString(l.maxMs()), Fmt.pct(l.successRate())));
			}
		}
		if (!rows.isEmpty()) {
			doc.heading(
					"Latency at equal load, JMeter (open model, whole ms; kept beside the latency generator's µs for one release)")
				.table(List.of("target", "rate req/s", "achieved req/s", "samples", "mean ms", "p50", "p90", "p99",
						"p99.9", "max", "success"), rows)
				.text("Percentiles: " + Percentiles.rule() + ".");
		}
	}

	/**
	 * One line for a warm-up: how long, JIT compile time before → after, GC pauses, why
	 * it ended.
	 */
	public static String warmup(WarmupResult w) {
		String compile = w.compileMsBefore() == null ? "compile time n/a"
				: "JIT compile " + Fmt.num(w.compileMsBefore(), 0) + " → " + Fmt.num(w.compileMsAfter(), 0) + " ms";
		String gc = w.gcPauseMs() == null ? "" : ", GC pauses " + Fmt.num(w.gcPauseMs(), 0) + " ms";
		String held = w.heldBack();
		return Fmt.num(w.seconds(), 1) + " s in " + w.windows() + " window(s), " + compile + gc + " — " + w.reason()
				+ (held.isEmpty() ? "" : "; held back by: " + held + " (run.json warmup.window_log)");
	}

	public static Document document(RunResult run) {
		Map<String, Object> s = run.settings();
		boolean quick = Boolean.TRUE.equals(s.get("quick"));
		Document doc = new Document("Gateway Lab bench" + (run.valid() ? "" : " — INVALID")
				+ (quick ? " — smoke run, not for quoting" : "") + " — " + run.environment().get("started"));
		if (!run.valid()) {
			doc.text("**INVALID: this run cannot support an answer.**").items(run.invalidBecause());
		}
		if (run.answer() != null) {
			doc.text("**" + run.answer() + "**");
		}
		doc.text("Settings: " + s.get("model") + ", " + s.get("repetitions") + " repetitions × " + s.get("duration_s")
				+ " s per target, interleaved; warm-up in windows of " + s.get("warmup_s") + " s until steady, "
				+ "discarded.");
		doc.heading("Results").table(RESULT_HEADER, run.targets().stream().map(BenchReport::resultRow).toList());
		doc.text("TPS: mean of the per-repetition TPS with its 95 % confidence interval (Student t, n−1 df), and "
				+ "the median. Latencies: HdrHistogram over all measured samples of all repetitions, whole ms; "
				+ Percentiles.rule() + ".");
		if (run.ratios() != null && !run.ratios().isEmpty()) {
			doc.heading("TPS ratios")
				.items(run.ratios()
					.stream()
					.map(r -> String.format(Locale.ROOT,
							"%s ÷ %s: %.3f ± %.3f (95 %% CI, ± %.1f %%; per repetition %s)", r.of(), r.to(), r.mean(),
							r.ci95(), 100 * r.ci95() / r.mean(), Fmt.list(r.reps(), 3)))
					.toList());
		}
		cpu(doc, run.targets());
		CpuChainReport.section(doc, run.cpuChain());
		CpuSplitReport.section(doc, run.cpuSplit());
		LatencyReport.section(doc, run.latency());
		latency(doc, run.targets());
		if (run.comparisons() != null && !run.comparisons().isEmpty()) {
			doc.heading("Comparisons").items(run.comparisons());
		}
		charts(doc, run.targets());
		List<String> method = run.targets()
			.stream()
			.filter(t -> t.warmup() != null)
			.map(t -> t.name() + ": " + warmup(t.warmup()))
			.toList();
		if (!method.isEmpty()) {
			doc.heading("Method: warm-up per target").items(method);
		}
		engines(doc, run.engines(), "closed-model repetitions");
		doc.heading("Errors").items(errors(run.targets()));
		resources(doc, run.targets());
		if (!run.warnings().isEmpty()) {
			doc.heading("Warnings").warnings(run.warnings());
		}
		if (!run.notes().isEmpty()) {
			doc.heading("Notes").items(run.notes());
		}
		doc.heading("Repetitions")
			.table(List.of("target", "rep", "samples", "errors", "TPS", "avg ms", "p99 ms", "window s",
					"calibration ms"), run.repetitions().stream().map(BenchReport::repRow).toList());
		doc.heading("Environment").items(keyValues(run.environment()));
		doc.heading("Settings").items(keyValues(s));
		doc.text("Raw JTLs: `raw/`; JMeter dashboards: `jmeter-dashboard/<target>/index.html`; data: `run.json`.");
		return doc;
	}

	private static void charts(Document doc, List<TargetResult> ts) {
		List<String> names = ts.stream().map(TargetResult::name).toList();
		double[] tps = ts.stream().mapToDouble(TargetResult::tps).toArray();
		double[] ci = ts.stream().mapToDouble(TargetResult::tpsCi95).toArray();
		double[][] pct = ts.stream()
			.map(t -> new double[] { orNaN(t.p50Ms()), orNaN(t.p90Ms()), orNaN(t.p99Ms()) })
			.toArray(double[][]::new);
		List<double[]> timelines = ts.stream().map(t -> t.timeline() == null ? new double[0] : t.timeline()).toList();
		doc.chart(Svg.bars("Throughput per target (mean ± 95 % CI)", "req/s", names, tps, ci));
		doc.chart(Svg.groupedBars("Latency percentiles per target (closed model, JMeter, whole ms)", "ms", names,
				List.of("p50", "p90", "p99"), pct));
		doc.chart(Svg.lines("Mean response time over time (1 s buckets, averaged over repetitions)", "seconds into run",
				"ms", names, timelines, null));
	}

	private static double orNaN(Long ms) {
		return ms == null ? Double.NaN : ms;
	}

	private static List<String> errors(List<TargetResult> ts) {
		List<String> out = new ArrayList<>();
		ts.forEach(t -> t.errors().forEach((k, v) -> out.add(t.name() + ": `" + k + "` × " + v)));
		return out.isEmpty() ? List.of("None.") : out;
	}

	private static void resources(Document doc, List<TargetResult> ts) {
		Set<String> procs = new LinkedHashSet<>();
		ts.forEach(t -> procs.addAll(t.resources().keySet()));
		List<String> header = new ArrayList<>(List.of("target"));
		header.addAll(procs);
		List<List<String>> rows = new ArrayList<>();
		for (TargetResult t : ts) {
			List<String> row = new ArrayList<>(List.of(t.name()));
			procs.forEach(p -> row.add(Fmt.resource(t.resources().get(p))));
			rows.add(row);
		}
		doc.heading("Resources during the measured runs")
			.table(header, rows)
			.text("CPU: mean over the run, 100 % = one core (`machine`: % of all cores). RSS: peak, from /proc.");
	}

	static void engines(Document doc, List<EngineResult> engines, String measured) {
		if (engines == null || engines.isEmpty()) {
			return;
		}
		Set<String> targets = new LinkedHashSet<>();
		engines.forEach(e -> targets.addAll(e.samplesPerTarget().keySet()));
		List<String> header = new ArrayList<>(List.of("engine", "samples", "share"));
		header.addAll(targets);
		header.add("CPU");
		header.add("clock offset");
		List<List<String>> rows = new ArrayList<>();
		for (EngineResult e : engines) {
			List<String> row = new ArrayList<>(
					List.of(e.engine(), Long.toString(e.samples()), Fmt.num(e.sharePercent(), 1) + " %"));
			targets.forEach(t -> row.add(Long.toString(e.samplesPerTarget().getOrDefault(t, 0L))));
			row.add(e.cpuPercent() == null ? "n/a" : Fmt.num(e.cpuPercent(), 0) + " %");
			row.add(e.clockOffsetMs() == null ? "n/a"
					: String.format(java.util.Locale.ROOT, "%+d ms", e.clockOffsetMs()));
			rows.add(row);
		}
		doc.heading("Load engines")
			.table(header, rows)
			.text("Measured samples (" + measured + ") per remote "
					+ "engine, told apart by the engine prefix JMeter puts in thread names; CPU: the engine's process over "
					+ "the measured runs, 100 % = one core, when it runs on this machine; clock offset: the engine's clock "
					+ "minus the runner's, estimated from its samples' end times and their arrival (within a few ms).");
	}

	private static List<String> repRow(RepResult r) {
		return List.of(r.target(), Integer.toString(r.rep()), Long.toString(r.samples()), Long.toString(r.errors()),
				Fmt.num(r.tps(), 1), Fmt.num(r.avgMs(), 2), Fmt.ms(r.p99Ms()), Fmt.num(r.windowSeconds(), 1),
				r.calibrationMs() == null ? "–" : Fmt.num(r.calibrationMs(), 1));
	}

	static List<String> keyValues(Map<String, Object> m) {
		return m.entrySet().stream().map(e -> e.getKey() + ": " + Fmt.value(e.getValue())).toList();
	}

}
