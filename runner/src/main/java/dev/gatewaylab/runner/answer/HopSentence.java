package dev.gatewaylab.runner.answer;

import dev.gatewaylab.runner.curve.LatencyCurve;
import dev.gatewaylab.runner.result.CpuCost;
import dev.gatewaylab.runner.result.LatencyResult;
import dev.gatewaylab.runner.result.RunResult;
import dev.gatewaylab.runner.result.TargetResult;
import dev.gatewaylab.runner.stats.Percentiles;
import dev.gatewaylab.runner.stats.Stats;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The sentence a normal run leads with: "The gateway hop costs 59 ± 1 µs of gateway CPU
 * per request; gateway ÷ direct TPS 0.41 ± 0.02; at 1,690 req/s it adds 0.21 ± 0.01 ms at
 * p50 and 1.4 ± 0.2 ms at p99 (knee ≈ 2,700 req/s)." A figure whose 95 % interval is
 * wider than {@value #RESOLVED} of itself is not an answer: it reads "not resolved (± N
 * %)". Another gateway measured beside it (the MVC gateway) gets the same clause after
 * it: "The MVC gateway (gateway-mvc): 95 ± 3 µs of gateway-mvc CPU per request;
 * gateway-mvc ÷ direct TPS 0.30 ± 0.02; at 1,690 req/s it adds ...". Pure.
 */
final class HopSentence {

	/** The widest CI95 half-width, as a share of the figure, that still resolves it. */
	static final double RESOLVED = Stats.RESOLVED;

	private HopSentence() {
	}

	static String of(List<TargetResult> results, List<RunResult.Ratio> ratios, Map<String, String> services,
			LatencyResult latency) {
		TargetResult gw = find(results, "gateway");
		TargetResult direct = find(results, "direct");
		if (gw == null || direct == null) {
			TargetResult t = results.get(0);
			String service = services.getOrDefault(t.name(), t.name());
			CpuCost c = t.cpuUsPerRequest() == null ? null : t.cpuUsPerRequest().get(service);
			return String.format(Locale.ROOT, "%s served %s req/s (closed model)%s.", t.name(),
					figure(t.tps(), t.tpsCi95(), "%,.0f", ""), c == null ? "" : " at "
							+ figure(c.mean(), c.ci95(), "%,.0f", " µs") + " of " + service + " CPU per request");
		}
		StringBuilder sb = new StringBuilder();
		hop(sb, gw, ratios, latency == null ? null : latency.addedAtAnswerRate(), latency);
		sb.append('.');
		for (String other : LatencyCurve.OTHER_HOPS) {
			TargetResult t = find(results, other);
			if (t != null) {
				sb.append(" The MVC gateway (").append(other).append("): ");
				hop(sb, t, ratios, latency == null || latency.addedAtAnswerRateBy() == null ? null
						: latency.addedAtAnswerRateBy().get(other), latency);
				sb.append('.');
			}
		}
		return sb.toString();
	}

	/**
	 * One hop's clause: its CPU per request, its TPS ÷ direct's, and what it adds at the
	 * answer rate (the knee only for the gateway's hop).
	 */
	private static void hop(StringBuilder sb, TargetResult gw, List<RunResult.Ratio> ratios, LatencyResult.Added a,
			LatencyResult latency) {
		String name = gw.name();
		boolean gateway = name.equals("gateway");
		CpuCost cost = gw.cpuUsPerRequest() == null ? null : gw.cpuUsPerRequest().get(name);
		if (cost == null) {
			sb.append(gateway ? "The gateway's CPU per request was not measured (no .lab/gateway.pid)"
					: "its CPU per request was not measured (no .lab/" + name + ".pid)");
		}
		else if (resolved(cost.mean(), cost.ci95())) {
			sb.append((gateway ? "The gateway hop costs " : "") + figure(cost.mean(), cost.ci95(), "%,.0f", " µs")
					+ " of " + name + " CPU per request");
		}
		else {
			sb.append((gateway ? "The gateway hop's CPU per request is " : "CPU per request ")
					+ unresolved(cost.mean(), cost.ci95()));
		}
		ratios.stream()
			.filter(r -> r.to().equals("direct") && r.of().equals(name))
			.findFirst()
			.ifPresent(r -> sb.append("; " + name + " ÷ direct TPS ")
				.append(resolved(r.mean(), r.ci95()) ? figure(r.mean(), r.ci95(), "%.2f", "")
						: unresolved(r.mean(), r.ci95())));
		if (a != null) {
			sb.append(String.format(Locale.ROOT, "; at %,.0f req/s it adds %s at p50 and %s at p99",
					latency.answerRate(), latency(a.p50(), 50), latency(a.p99(), 99)));
			if (gateway) {
				String notJudged = latency.kneeNotJudged();
				sb.append(notJudged != null ? " (knee not judged: " + notJudged + ")"
						: latency.kneeRate() != null
								? String.format(Locale.ROOT, " (knee ≈ %,.0f req/s)", latency.kneeRate())
								: String.format(Locale.ROOT, " (no knee up to %,.0f req/s)", highestRate(latency)));
			}
		}
	}

	private static double highestRate(LatencyResult l) {
		return l.levels().stream().mapToDouble(LatencyResult.Level::rate).max().orElse(l.answerRate());
	}

	/**
	 * An added latency in ms with sensible precision, or "not resolved (± N %)", or — no
	 * estimate: a window held too few samples for the percentile — "not resolved (too few
	 * samples: p99 needs 1,000 per window)".
	 */
	static String latency(LatencyResult.Estimate e, double percentile) {
		if (e == null) {
			return String.format(Locale.ROOT, "not resolved (too few samples: %s needs %,d per window)",
					Percentiles.name(percentile), Percentiles.minSamples(percentile));
		}
		if (!resolved(e.mean(), e.ci95())) {
			return unresolved(e.mean(), e.ci95());
		}
		String format = ms(e.mean());
		return Double.isNaN(e.ci95()) ? String.format(Locale.ROOT, format, e.mean() / 1000) + " ms"
				: String.format(Locale.ROOT, format + " ± " + format + " ms", e.mean() / 1000, e.ci95() / 1000);
	}

	/** Two significant digits: 0.21 ms, 1.4 ms, 14 ms. */
	static String ms(double us) {
		double ms = Math.abs(us) / 1000;
		return ms < 1 ? "%.2f" : ms < 10 ? "%.1f" : "%,.0f";
	}

	/**
	 * No interval (one repetition) is not judged; a wide one or an undefined figure is.
	 */
	static boolean resolved(double value, double ci) {
		return Stats.resolved(value, ci);
	}

	static String unresolved(double value, double ci) {
		return Double.isNaN(value) || value == 0 ? "not resolved (no figure)"
				: String.format(Locale.ROOT, "not resolved (± %,.0f %%)", 100 * ci / Math.abs(value));
	}

	/** "value ± ci unit", or "value unit (one repetition: no interval)". */
	static String figure(double value, double ci, String format, String unit) {
		String v = String.format(Locale.ROOT, format, value) + unit;
		return Double.isNaN(ci) ? v + " (one repetition: no interval)"
				: v + " ± " + String.format(Locale.ROOT, format, ci) + unit;
	}

	private static TargetResult find(List<TargetResult> results, String name) {
		return results.stream().filter(r -> r.name().equals(name)).findFirst().orElse(null);
	}

}
