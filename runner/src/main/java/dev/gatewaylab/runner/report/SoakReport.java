package dev.gatewaylab.runner.report;

import dev.gatewaylab.runner.result.SoakResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The soak report (soak.md, soak.html), its terminal table and its verdict line, from a
 * {@link SoakResult}.
 */
public final class SoakReport {

	private static final List<String> HEADER = List.of("#", "end s", "requests", "TPS", "p99 ms", "errors", "RSS MiB",
			"heap after GC MiB", "open fds", "threads", "log events dropped");

	private SoakReport() {
	}

	/** Writes soak.json, soak.md and soak.html into {@code dir}. */
	public static void write(Path dir, SoakResult soak) throws IOException {
		soak.write(dir.resolve("soak.json"));
		Document doc = document(soak);
		Files.writeString(dir.resolve("soak.md"), MarkdownWriter.write(doc));
		Files.writeString(dir.resolve("soak.html"), HtmlWriter.write(doc));
	}

	public static String table(SoakResult soak) {
		return MarkdownWriter.table(HEADER, rows(soak));
	}

	/** One line: STABLE, or DRIFT with every finding. */
	public static String verdict(SoakResult soak) {
		return soak.stable() ? "verdict: STABLE — " + summary(soak)
				: "verdict: DRIFT — " + String.join("; ", soak.findings());
	}

	static String summary(SoakResult soak) {
		SoakResult.Totals t = soak.totals();
		String p99 = Double.isNaN(t.p99DriftPct()) ? "p99 drift not judged (too few samples)"
				: String.format(Locale.ROOT, "p99 %s → %s ms (%+.1f %%)", Fmt.num(t.p99FirstMs(), 2),
						Fmt.num(t.p99LastMs(), 2), t.p99DriftPct());
		return String.format(Locale.ROOT, "%d requests at %s req/s, error rate %.3f %%, %s", t.requests(),
				Fmt.num(soak.rate(), 0), t.errorRatePct(), p99);
	}

	public static Document document(SoakResult soak) {
		Document doc = new Document("Gateway Lab soak");
		doc.text("Open model: Poisson arrivals at " + Fmt.num(soak.rate(), 0) + " req/s"
				+ (Double.isNaN(soak.maxTps()) ? " (--rate)"
						: " = 70 % of the open-model max probed, " + Fmt.num(soak.maxTps(), 1) + " req/s")
				+ ", after a discarded warm-up. Each row: the requests completed in the interval, then the "
				+ "soaked process read at its end (a full GC is forced first, so heap after GC is the live heap).");
		doc.heading("Verdict").text(soak.stable() ? "**STABLE** — " + summary(soak) : "**DRIFT** — " + summary(soak));
		if (!soak.stable()) {
			doc.warnings(soak.findings());
		}
		List<SoakResult.Sample> s = soak.samples();
		if (s.size() > 1) {
			double[] xs = s.stream().mapToDouble(SoakResult.Sample::endSeconds).toArray();
			doc.chart(Svg.lines("p99 per interval", "s", "ms", List.of("p99"), List.of(series(s, x -> x.p99Ms())), xs));
			doc.chart(Svg.lines("memory", "s", "MiB", List.of("RSS", "heap after GC"),
					List.of(series(s, SoakResult.Sample::rssMiB), series(s, SoakResult.Sample::heapAfterGcMiB)), xs));
		}
		doc.heading("Per interval").table(HEADER, rows(soak));
		if (soak.warnings() != null && !soak.warnings().isEmpty()) {
			doc.heading("Warnings").warnings(soak.warnings());
		}
		if (soak.warmup() != null) {
			doc.heading("Warm-up").text(BenchReport.warmup(soak.warmup()));
		}
		doc.heading("Settings").items(BenchReport.keyValues(soak.settings()));
		return doc;
	}

	private static double[] series(List<SoakResult.Sample> s, ToDoubleFunction<SoakResult.Sample> f) {
		return s.stream().mapToDouble(f).toArray();
	}

	private static List<List<String>> rows(SoakResult soak) {
		return soak.samples()
			.stream()
			.map(x -> List.of(Integer.toString(x.index()), Fmt.num(x.endSeconds(), 0), Long.toString(x.requests()),
					Fmt.num(x.tps(), 1), Double.isNaN(x.p99Ms()) ? "–" : Fmt.num(x.p99Ms(), 2),
					Long.toString(x.errors()), Fmt.num(x.rssMiB(), 1), Fmt.num(x.heapAfterGcMiB(), 1),
					count(x.openFds()), count(x.threads()), Fmt.num(x.logEventsDropped(), 0)))
			.toList();
	}

	private static String count(long v) {
		return v < 0 ? "n/a" : Long.toString(v);
	}

}
