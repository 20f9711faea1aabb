package dev.gatewaylab.runner.report;

import dev.gatewaylab.runner.result.LatencyResult;
import dev.gatewaylab.runner.result.LatencyResult.Added;
import dev.gatewaylab.runner.result.LatencyResult.Estimate;
import dev.gatewaylab.runner.result.LatencyResult.Level;
import dev.gatewaylab.runner.result.LatencyResult.Point;
import dev.gatewaylab.runner.stats.Percentiles;
import dev.gatewaylab.runner.stats.Stats;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The latency generator's section of the bench report: each target per arrival rate in µs
 * with its sample count, what the hop adds per rate, the knee, and a chart of p50/p99
 * against the rate; the same table on the terminal.
 */
public final class LatencyReport {

	private LatencyReport() {
	}

	private static final List<String> HEADER = List.of("rate req/s", "target", "achieved req/s", "samples", "success",
			"mean µs", "p50 µs", "p90 µs", "p99 µs", "p99.9 µs", "max µs");

	private static final List<String> ADDED_HEADER = List.of("rate req/s", "added p50 µs", "added p99 µs",
			"added p99.9 µs");

	/** The cell of an added p99.9 below zero. */
	static final String NEGATIVE_P999 = "not resolved";

	private static final String NEGATIVE_P999_NOTE = " An added p99.9 below zero (the gateway faster than direct at "
			+ "its slowest 0.1 %) is the noise of the few samples it rests on: shown as not resolved.";

	/** The terminal's table ("" when the run had no latency phase). */
	public static String table(LatencyResult l) {
		if (l == null) {
			return "";
		}
		StringBuilder others = new StringBuilder();
		for (String hop : otherHops(l)) {
			others.append(hop + " − direct:\n").append(MarkdownWriter.table(ADDED_HEADER, addedRows(l, hop)));
		}
		return "\nLatency across the load range (latency generator, open model, µs):\n"
				+ MarkdownWriter.table(HEADER, rows(l)) + MarkdownWriter.table(ADDED_HEADER, addedRows(l)) + knee(l)
				+ "\n" + others;
	}

	public static void section(Document doc, LatencyResult l) {
		if (l == null) {
			return;
		}
		doc.heading("Latency across the load range (latency generator, µs)")
			.text("Generator: " + l.generator() + "."
					+ (l.generatorWarmup() == null ? "" : " Its warm-up: " + l.generatorWarmup() + ".")
					+ " Every target at the same arrival rates, in alternating order; at " + Fmt.num(l.answerRate(), 0)
					+ " req/s (the answer's rate) interleaved repetitions. Samples: " + Percentiles.rule() + ".")
			.table(HEADER, rows(l))
			.heading("What the gateway hop adds (gateway − direct)")
			.table(ADDED_HEADER, addedRows(l))
			.text(knee(l) + " Knee: " + l.kneeRule() + "." + (negativeP999(l) ? NEGATIVE_P999_NOTE : ""));
		for (String hop : otherHops(l)) {
			doc.heading("What the " + hop + " hop adds (" + hop + " − direct)").table(ADDED_HEADER, addedRows(l, hop));
		}
		List<Level> levels = l.levels();
		Set<String> targets = new LinkedHashSet<>();
		levels.forEach(v -> targets.addAll(v.targets().keySet()));
		double[] xs = levels.stream().mapToDouble(Level::rate).toArray();
		List<String> names = new ArrayList<>();
		List<double[]> ys = new ArrayList<>();
		for (String percentile : List.of("p99", "p50")) {
			for (String t : targets) {
				names.add(t + " " + percentile);
				ys.add(levels.stream().mapToDouble(v -> {
					Point p = v.targets().get(t);
					Double us = p == null ? null : percentile.equals("p99") ? p.p99Us() : p.p50Us();
					return us == null ? Double.NaN : us / 1000;
				}).toArray());
			}
		}
		if (xs.length > 1) {
			doc.chart(Svg.lines("Latency against arrival rate (latency generator)", "req/s", "ms", names, ys, xs));
		}
	}

	private static List<List<String>> rows(LatencyResult l) {
		List<List<String>> rows = new ArrayList<>();
		for (Level v : l.levels()) {
			v.targets()
				.forEach((t,
						p) -> rows.add(List.of(Fmt.num(v.rate(), 0), t, Fmt.num(p.achievedRate(), 0),
								Long.toString(p.samples()), Fmt.pct(p.successRate()), us(p.meanUs()), us(p.p50Us()),
								us(p.p90Us()), us(p.p99Us()), us(p.p999Us()), us(p.maxUs()))));
		}
		return rows;
	}

	private static List<List<String>> addedRows(LatencyResult l) {
		List<List<String>> rows = new ArrayList<>();
		for (Level v : l.levels()) {
			Added a = added(l, v);
			if (a != null) {
				rows.add(List.of(Fmt.num(v.rate(), 0), estimate(a.p50()), estimate(a.p99()), p999(a.p999())));
			}
		}
		return rows;
	}

	/** The other gateways beside the gateway whose added latency the run has. */
	static Set<String> otherHops(LatencyResult l) {
		Set<String> hops = new LinkedHashSet<>();
		l.levels().stream().filter(v -> v.addedBy() != null).forEach(v -> hops.addAll(v.addedBy().keySet()));
		return hops;
	}

	/**
	 * What {@code hop} adds over direct per rate; at the answer rate with its interval.
	 */
	private static List<List<String>> addedRows(LatencyResult l, String hop) {
		List<List<String>> rows = new ArrayList<>();
		for (Level v : l.levels()) {
			Added a = v.rate() == l.answerRate() && l.addedAtAnswerRateBy() != null
					&& l.addedAtAnswerRateBy().get(hop) != null ? l.addedAtAnswerRateBy().get(hop)
							: (v.addedBy() == null ? null : v.addedBy().get(hop));
			if (a != null) {
				rows.add(List.of(Fmt.num(v.rate(), 0), estimate(a.p50()), estimate(a.p99()), estimate(a.p999())));
			}
		}
		return rows;
	}

	public static String knee(LatencyResult l) {
		double top = l.levels().stream().mapToDouble(Level::rate).max().orElse(l.answerRate());
		String notJudged = l.kneeNotJudged();
		if (LatencyResult.TOO_FEW_SAMPLES.equals(notJudged)) {
			return "Knee not judged: fewer than two rates had the samples a p99 needs.";
		}
		if (notJudged != null) {
			return "Knee not judged: the added p99 at the lowest rate, which every other rate is compared against, "
					+ "is not resolved (its interval is wider than " + Math.round(100 * Stats.RESOLVED)
					+ " % of itself).";
		}
		if (l.kneeRate() != null) {
			return String.format(Locale.ROOT, "Knee ≈ %,.0f req/s.", l.kneeRate());
		}
		return String.format(Locale.ROOT, "No knee up to %,.0f req/s (the highest rate measured).", top);
	}

	/** "–" where the samples were too few for the percentile. */
	private static String estimate(Estimate e) {
		return e == null ? "–" : Double.isNaN(e.ci95()) ? us(e.mean()) : us(e.mean()) + " ± " + us(e.ci95());
	}

	/**
	 * The added p99.9: below zero — the gateway faster than direct at its slowest 0.1 % —
	 * it is the noise of the few samples it rests on, not a figure: "not resolved".
	 */
	static String p999(Estimate e) {
		return e != null && e.mean() < 0 ? NEGATIVE_P999 : estimate(e);
	}

	private static boolean negativeP999(LatencyResult l) {
		return l.levels()
			.stream()
			.map(v -> added(l, v))
			.anyMatch(a -> a != null && a.p999() != null && a.p999().mean() < 0);
	}

	/** What the hop adds at this rate: at the answer rate with its interval. */
	private static Added added(LatencyResult l, Level v) {
		return v.rate() == l.answerRate() && l.addedAtAnswerRate() != null ? l.addedAtAnswerRate() : v.added();
	}

	/** "–" where the samples were too few for the figure, "n/a" where there were none. */
	private static String us(Double v) {
		return v == null ? "–" : Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%,.0f", v);
	}

}
