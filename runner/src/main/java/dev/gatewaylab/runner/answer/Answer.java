package dev.gatewaylab.runner.answer;

import dev.gatewaylab.runner.curve.LatencyCurve;
import dev.gatewaylab.runner.experiment.Experiment;
import dev.gatewaylab.runner.experiment.Switchback;
import dev.gatewaylab.runner.experiment.Toggle;
import dev.gatewaylab.runner.result.CpuChain;
import dev.gatewaylab.runner.result.CpuCost;
import dev.gatewaylab.runner.result.LatencyResult;
import dev.gatewaylab.runner.result.RunResult;
import dev.gatewaylab.runner.result.TargetResult;
import dev.gatewaylab.runner.run.Settings;
import dev.gatewaylab.runner.stats.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one sentence a report leads with, and the TPS ratios it rests on. Pure functions of
 * the results.
 */
public final class Answer {

	/**
	 * How a --quick run's answer begins: its figures rest on one short window each.
	 */
	static final String SMOKE = "Smoke run, not for quoting (--quick): ";

	private Answer() {
	}

	/** 99 → "99", 99.5 → "99.5". */
	static String trim(double v) {
		return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : Double.toString(v);
	}

	/**
	 * What a run concludes: its one sentence, the ratios it rests on and the verdict
	 * lines.
	 */
	public record Verdict(String answer, List<RunResult.Ratio> ratios, List<String> comparisons) {
	}

	/**
	 * The ratios and verdicts fitting the run: gateway ÷ each other target; an
	 * experiment's variants ÷ its baseline; a toggled experiment's variants ÷ their own
	 * off arms; an open-model experiment answers with latency.
	 */
	public static Verdict of(Settings s, Experiment experiment, List<TargetResult> results,
			Map<String, String> services, LatencyResult latency, CpuChain chain) {
		boolean variants = experiment != null;
		Toggle toggle = variants ? experiment.toggle() : null;
		List<String> comparisons = s.repetitions() < 2 ? List.of()
				: toggle != null ? Comparisons.ofPairs(results, toggle.offSuffix()) : Comparisons.of(results, variants);
		List<RunResult.Ratio> ratios = toggle != null ? ratiosToOffArm(results, toggle.offSuffix())
				: variants ? ratiosToFirst(results) : ratios(results);
		String answer = !variants ? hop(results, ratios, services, latency, chain)
				: s.openModel() ? openExperimentSentence(s.experiment(), s.rate(), results)
						: toggle != null
								? toggleSentence(s.experiment(), toggle, results, ratios, services,
										experiment.tolerance(), Switchback.segmentSeconds(s.durationSeconds()))
								: experimentSentence(s.experiment(), results, ratios, services, experiment.tolerance());
		return new Verdict(s.quick() ? SMOKE + answer : answer, ratios, comparisons);
	}

	/**
	 * A normal run's sentence, led by stock → ours → floor when the run measured stock.
	 */
	private static String hop(List<TargetResult> results, List<RunResult.Ratio> ratios, Map<String, String> services,
			LatencyResult latency, CpuChain chain) {
		String hop = HopSentence.of(results, ratios, services, latency);
		return (chain != null) ? CpuChains.clause(chain) + ". " + hop : hop;
	}

	/**
	 * The first target's TPS over each other target's, per interleaved repetition (rep i
	 * ÷ rep i), and another gateway's over direct's (gateway-mvc ÷ direct).
	 */
	static List<RunResult.Ratio> ratios(List<TargetResult> results) {
		List<RunResult.Ratio> out = new ArrayList<>();
		for (TargetResult other : results.subList(Math.min(1, results.size()), results.size())) {
			out.add(ratio(results.get(0), other));
		}
		// another gateway beside the first target: its own ratio to direct too
		TargetResult direct = find(results, "direct");
		for (String hop : LatencyCurve.OTHER_HOPS) {
			TargetResult t = find(results, hop);
			if (t != null && direct != null && t != results.get(0)) {
				out.add(ratio(t, direct));
			}
		}
		return out;
	}

	/**
	 * Each other target's TPS over the first's (an experiment's variant ÷ its baseline),
	 * per repetition.
	 */
	static List<RunResult.Ratio> ratiosToFirst(List<TargetResult> results) {
		List<RunResult.Ratio> out = new ArrayList<>();
		for (TargetResult other : results.subList(Math.min(1, results.size()), results.size())) {
			out.add(ratio(other, results.get(0)));
		}
		return out;
	}

	/**
	 * Each variant's TPS over its own off arm (same JVM, same run), per repetition; off
	 * arms are not listed.
	 */
	static List<RunResult.Ratio> ratiosToOffArm(List<TargetResult> results, String offSuffix) {
		List<RunResult.Ratio> out = new ArrayList<>();
		for (TargetResult on : results) {
			TargetResult off = find(results, on.name() + "-" + offSuffix);
			if (off != null) {
				out.add(ratio(on, off));
			}
		}
		return out;
	}

	private static RunResult.Ratio ratio(TargetResult of, TargetResult to) {
		int n = Math.min(of.tpsReps().length, to.tpsReps().length);
		double[] r = new double[n];
		for (int i = 0; i < n; i++) {
			r[i] = to.tpsReps()[i] == 0 ? Double.NaN : of.tpsReps()[i] / to.tpsReps()[i];
		}
		return new RunResult.Ratio(of.name(), to.name(), Stats.mean(r), Stats.ci95(r), r);
	}

	/**
	 * "Tuning experiment, against defaults (TPS ratio per repetition ± CI95; gateway CPU
	 * per request): nio ×0.97 ± 0.02 (142 µs vs 136 µs), ..." — one clause per variant.
	 */
	static String experimentSentence(String experiment, List<TargetResult> results, List<RunResult.Ratio> ratios,
			Map<String, String> services, double tolerance) {
		TargetResult base = results.get(0);
		String service = services.getOrDefault(base.name(), base.name());
		StringBuilder sb = new StringBuilder(
				Character.toUpperCase(experiment.charAt(0)) + experiment.substring(1) + " experiment, against "
						+ base.name() + " (TPS ratio per repetition; " + service + " CPU per request): ");
		List<String> clauses = new ArrayList<>();
		for (RunResult.Ratio r : ratios) {
			TargetResult v = find(results, r.of());
			clauses.add(r.of() + " ×" + pm(r.mean(), r.ci95(), "%.3f", "") + " (" + us(v, service) + " vs "
					+ us(base, service) + ")" + (tolerance > 0 ? ": " + verdict(r, base.name(), tolerance) : ""));
		}
		return sb.append(clauses.isEmpty() ? "no variant measured" : String.join("; ", clauses)).append('.').toString();
	}

	/**
	 * "Logging experiment, the access log on ÷ off in the same JVM (switched every 2 s;
	 * TPS ratio per JVM ± CI95; gateway CPU per request on vs off): logback ×0.951 ±
	 * 0.012, −4.9 ± 1.2 points (137 vs 121 µs): NOT within 3 % of off; ..." — one clause
	 * per variant.
	 */
	static String toggleSentence(String experiment, Toggle toggle, List<TargetResult> results,
			List<RunResult.Ratio> ratios, Map<String, String> services, double tolerance, double segmentSeconds) {
		String service = ratios.isEmpty() ? "" : services.getOrDefault(ratios.get(0).of(), ratios.get(0).of());
		StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%s experiment, %s on ÷ %s in the same JVM "
				+ "(switched in %s s segments, on off off on …; TPS ratio per JVM ± CI95, as a TPS difference in points; %s CPU per request "
				+ "on vs %s): ", Character.toUpperCase(experiment.charAt(0)) + experiment.substring(1),
				toggle.what().replaceFirst(" \\(.*", ""), toggle.offSuffix(), seconds(segmentSeconds), service,
				toggle.offSuffix()));
		List<String> clauses = new ArrayList<>();
		for (RunResult.Ratio r : ratios) {
			TargetResult on = find(results, r.of());
			TargetResult off = find(results, r.to());
			String points = Double.isNaN(r.ci95()) ? String.format(Locale.ROOT, "%+.1f points", 100 * (r.mean() - 1))
					: String.format(Locale.ROOT, "%+.1f ± %.1f points", 100 * (r.mean() - 1), 100 * r.ci95());
			clauses.add(r.of() + " ×" + pm(r.mean(), r.ci95(), "%.3f", "") + ", " + points + " (" + us(on, service)
					+ " vs " + us(off, service) + ")" + (tolerance > 0 ? ": " + verdict(r, r.to(), tolerance) : ""));
		}
		return sb.append(clauses.isEmpty() ? "no variant measured" : String.join("; ", clauses)).append('.').toString();
	}

	/**
	 * Whether a variant's TPS ratio to the baseline is within {@code tolerance} of 1: the
	 * whole 95 % interval inside [1 − tolerance, 1 + tolerance] is "within", wholly
	 * outside is "not within", and an interval across the edge is undecided (more
	 * repetitions narrow it).
	 */
	static String verdict(RunResult.Ratio r, String baseline, double tolerance) {
		String pct = String.format(Locale.ROOT, "%.0f %%", tolerance * 100);
		double lo = r.mean() - r.ci95();
		double hi = r.mean() + r.ci95();
		if (Double.isNaN(r.mean()) || Double.isNaN(r.ci95())) {
			return "no verdict (too few repetitions for an interval)";
		}
		if (lo >= 1 - tolerance && hi <= 1 + tolerance) {
			return "within " + pct + " of " + baseline;
		}
		if (hi < 1 - tolerance || lo > 1 + tolerance) {
			return "NOT within " + pct + " of " + baseline;
		}
		return String.format(Locale.ROOT, "undecided at %s (interval %.3f–%.3f crosses the limit; add --repetitions)",
				pct, lo, hi);
	}

	/**
	 * "Virtual-threads experiment at 600 req/s (open model), p99 / errors:
	 * platform-direct 812 ms / 0.00 %, ...; the gateway adds at p99: platform +37 ms,
	 * virtual +3,050 ms." — latency is the answer when the load is fixed. With other
	 * paths than the gateway in front of the upstream: "...; added at p99 over direct:
	 * platform-gateway +37 ms, platform-gateway-mvc +12 ms, ...".
	 */
	static String openExperimentSentence(String experiment, double rate, List<TargetResult> results) {
		List<String> clauses = new ArrayList<>();
		for (TargetResult t : results) {
			clauses.add(String.format(Locale.ROOT, "%s %s / %.2f %%", t.name(),
					t.p99Ms() == null ? String.format(Locale.ROOT, "p99 not resolved (%,d samples)", t.samples())
							: String.format(Locale.ROOT, "%,d ms", t.p99Ms()),
					100 - t.successRate()));
		}
		List<String> added = new ArrayList<>();
		boolean gatewayOnly = true;
		for (TargetResult direct : results) {
			if (!direct.name().endsWith("-direct")) {
				continue;
			}
			String variant = direct.name().substring(0, direct.name().length() - "-direct".length());
			for (TargetResult path : results) {
				if (path != direct && path.name().startsWith(variant + "-") && path.p99Ms() != null
						&& direct.p99Ms() != null) {
					String kind = path.name().substring(variant.length() + 1);
					gatewayOnly &= kind.equals("gateway");
					added.add(String.format(Locale.ROOT, "%s %+,d ms", path.name(), path.p99Ms() - direct.p99Ms()));
				}
			}
		}
		if (gatewayOnly) {
			// the one path in front: "platform +37 ms"
			added.replaceAll(a -> a.replaceFirst("-gateway ", " "));
		}
		return String.format(Locale.ROOT, "%s%s experiment at %,.0f req/s (open model), p99 / errors: %s%s.",
				Character.toUpperCase(experiment.charAt(0)), experiment.substring(1), rate, String.join("; ", clauses),
				added.isEmpty() ? "" : (gatewayOnly ? "; the gateway adds at p99: " : "; added at p99 over direct: ")
						+ String.join(", ", added));
	}

	private static String seconds(double s) {
		return s == Math.rint(s) ? String.format(Locale.ROOT, "%.0f", s) : String.format(Locale.ROOT, "%.1f", s);
	}

	private static String us(TargetResult t, String service) {
		CpuCost c = t == null || t.cpuUsPerRequest() == null ? null : t.cpuUsPerRequest().get(service);
		return c == null ? "n/a" : String.format(Locale.ROOT, "%,.0f µs", c.mean());
	}

	/** "value ± ci unit", or "value unit" when there is no interval (one repetition). */
	private static String pm(double value, double ci, String format, String unit) {
		String v = String.format(Locale.ROOT, format, value) + unit;
		return Double.isNaN(ci) ? v + " (one repetition: no interval)"
				: v + " ± " + String.format(Locale.ROOT, format, ci) + unit;
	}

	private static TargetResult find(List<TargetResult> results, String name) {
		return results.stream().filter(r -> r.name().equals(name)).findFirst().orElse(null);
	}

}
