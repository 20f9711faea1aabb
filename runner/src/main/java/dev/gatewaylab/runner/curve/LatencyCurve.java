package dev.gatewaylab.runner.curve;

import dev.gatewaylab.runner.latency.OpenLoad;
import dev.gatewaylab.runner.result.LatencyResult.Added;
import dev.gatewaylab.runner.result.LatencyResult.Estimate;
import dev.gatewaylab.runner.result.LatencyResult.Level;
import dev.gatewaylab.runner.result.LatencyResult.Point;
import dev.gatewaylab.runner.result.LatencyResult;
import dev.gatewaylab.runner.stats.Percentiles;
import dev.gatewaylab.runner.stats.Stats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Turns the latency generator's windows into run.json's "latency": each target's point
 * per rate, what the hop adds (gateway − direct), its interval at the answer rate (one
 * difference per interleaved repetition), and the knee; the same differences for each
 * other gateway measured beside it ({@link #OTHER_HOPS}). Pure.
 */
public final class LatencyCurve {

	/**
	 * Targets that are a hop in front of study-service beside the gateway: what each adds
	 * over direct is figured like the gateway's.
	 */
	public static final List<String> OTHER_HOPS = List.of("gateway-mvc");

	static final String KNEE_RULE = "the lowest rate from which the hop adds at p99 at least twice what it adds at "
			+ "the lowest rate measured, at that rate and at every higher one (a lone slow window below is not a knee); "
			+ "judged only when the added p99 at the lowest rate is resolved (CI95 within "
			+ Math.round(100 * Stats.RESOLVED) + " % of itself)";

	private LatencyCurve() {
	}

	public static LatencyResult of(LatencyPhase.Measured m, String generator) {
		List<Level> levels = new ArrayList<>();
		Added atAnswer = null;
		Map<String, Added> atAnswerBy = new LinkedHashMap<>();
		for (Map.Entry<Double, Map<String, LatencyPhase.Windows>> e : m.byRate().entrySet()) {
			Map<String, Point> points = new LinkedHashMap<>();
			e.getValue().forEach((target, w) -> points.put(target, point(e.getKey(), w.windows())));
			Point gw = points.get("gateway");
			Point direct = points.get("direct");
			Added added = null;
			if (gw != null && direct != null) {
				added = new Added(difference(gw.p50Us(), direct.p50Us()), difference(gw.p99Us(), direct.p99Us()),
						difference(gw.p999Us(), direct.p999Us()));
				if (e.getKey() == m.answerRate()) {
					atAnswer = perRepetition(e.getValue().get("gateway").windows(),
							e.getValue().get("direct").windows(), added.p999());
				}
			}
			Map<String, Added> addedBy = new LinkedHashMap<>();
			for (String hop : OTHER_HOPS) {
				Point p = points.get(hop);
				if (p != null && direct != null) {
					Added a = new Added(difference(p.p50Us(), direct.p50Us()), difference(p.p99Us(), direct.p99Us()),
							difference(p.p999Us(), direct.p999Us()));
					addedBy.put(hop, a);
					if (e.getKey() == m.answerRate()) {
						atAnswerBy.put(hop, perRepetition(e.getValue().get(hop).windows(),
								e.getValue().get("direct").windows(), a.p999()));
					}
				}
			}
			levels.add(new Level(e.getKey(), points, added, addedBy.isEmpty() ? null : addedBy));
		}
		Double knee = LatencyResult.kneeNotJudged(levels, m.answerRate(), atAnswer) == null ? knee(levels) : null;
		return new LatencyResult(generator, m.warmup() == null ? null : m.warmup().describe(), m.answerRate(), levels,
				atAnswer, atAnswerBy.isEmpty() ? null : atAnswerBy, knee, KNEE_RULE);
	}

	/**
	 * What the report must say about the phase: a generator still compiling when it began
	 * to measure, windows the generator could not run, targets it could not measure,
	 * windows that waited for connections or were throttled.
	 */
	public static List<String> problems(LatencyPhase.Measured m) {
		List<String> out = new ArrayList<>();
		if (m.warmup() != null && m.warmup().capped()) {
			out.add(String.format(java.util.Locale.ROOT,
					"latency generator: after %d warm-up rounds the p50 was still falling (%s) — the first "
							+ "repetition at the answer rate may be slower than the others, and the added latency's "
							+ "interval wider",
					m.warmup().rounds(), m.warmup().stillFallingLastRounds()));
		}
		m.skipped().forEach(t -> out.add("latency generator: not measured: " + t + " — JMeter's figures only"));
		m.byRate().forEach((rate, targets) -> targets.forEach((target, w) -> {
			String at = String.format(java.util.Locale.ROOT, "latency generator, %s at %,.0f req/s: ", target, rate);
			w.errors().forEach(e -> out.add(at + "a window failed (" + e + ")"));
			if (w.windows().stream().anyMatch(OpenLoad.Window::throttled)) {
				out.add(at + "more requests in flight than its session pool: arrivals were held back");
			}
		}));
		return out;
	}

	static Point point(double rate, List<OpenLoad.Window> windows) {
		Histogram h = new Histogram(3);
		long requests = 0;
		long ok = 0;
		long blocked = 0;
		boolean throttled = false;
		double seconds = 0;
		for (OpenLoad.Window w : windows) {
			h.add(w.histogram());
			requests += w.requests();
			ok += w.ok();
			blocked += w.blockedNanos();
			throttled |= w.throttled();
			seconds += w.seconds();
		}
		long n = h.getTotalCount();
		return new Point(rate, seconds > 0 ? requests / seconds : 0, requests, n,
				requests == 0 ? 0 : 100.0 * ok / requests, n == 0 ? Double.NaN : h.getMean() / 1000,
				Percentiles.of(h, 50, 1000), Percentiles.of(h, 90, 1000), Percentiles.of(h, 99, 1000),
				Percentiles.of(h, 99.9, 1000), n == 0 ? Double.NaN : h.getMaxValue() / 1000.0, blocked / 1e6, throttled,
				windows.size());
	}

	/** gateway − direct, or null when either lacks the figure. */
	private static Estimate difference(Double gateway, Double direct) {
		return gateway == null || direct == null ? null
				: new Estimate(gateway - direct, Double.NaN, new double[] { gateway - direct });
	}

	/**
	 * The hop's added p50 and p99 per interleaved repetition (gateway rep i − direct rep
	 * i), with their mean and CI95; p99.9 only over all windows (a 3 s window holds too
	 * few samples for it). A percentile is null when any of those windows holds too few
	 * samples for it ({@link Percentiles}).
	 */
	static Added perRepetition(List<OpenLoad.Window> gateway, List<OpenLoad.Window> direct, Estimate p999) {
		return new Added(perRepetition(gateway, direct, 50), perRepetition(gateway, direct, 99), p999);
	}

	private static Estimate perRepetition(List<OpenLoad.Window> gateway, List<OpenLoad.Window> direct,
			double percentile) {
		int n = Math.min(gateway.size(), direct.size());
		double[] added = new double[n];
		for (int i = 0; i < n; i++) {
			Double g = Percentiles.of(gateway.get(i).histogram(), percentile, 1000);
			Double d = Percentiles.of(direct.get(i).histogram(), percentile, 1000);
			if (g == null || d == null) {
				return null;
			}
			added[i] = g - d;
		}
		return n == 0 ? null : estimate(added);
	}

	private static Estimate estimate(double[] values) {
		return new Estimate(Stats.mean(values), values.length < 2 ? Double.NaN : Stats.ci95(values), values);
	}

	/** {@link #KNEE_RULE}; null when no rate meets it. */
	static Double knee(List<Level> levels) {
		List<Level> withAdded = levels.stream().filter(Level::hasAddedP99).toList();
		if (withAdded.size() < 2) {
			return null;
		}
		double base = Math.max(withAdded.get(0).added().p99().mean(), 1);
		Double knee = null;
		for (Level l : withAdded.subList(1, withAdded.size())) {
			if (l.added().p99().mean() >= 2 * base) {
				knee = (knee != null) ? knee : l.rate();
			}
			else {
				knee = null; // departed, then back: one slow window, not the knee
			}
		}
		return knee;
	}

}
