package dev.gatewaylab.runner.answer;

import dev.gatewaylab.runner.result.TargetResult;
import dev.gatewaylab.runner.stats.Percentiles;
import dev.gatewaylab.runner.stats.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Verdict lines: each experiment variant against the baseline (the first target), or the
 * first target (gateway) against each other target. TPS and p99 via Welch's t-test over
 * the per-repetition values.
 */
final class Comparisons {

	private Comparisons() {
	}

	/**
	 * Each variant against its own off arm ({@code <variant>-<offSuffix>}), for an
	 * experiment with a toggle.
	 */
	static List<String> ofPairs(List<TargetResult> results, String offSuffix) {
		List<String> out = new ArrayList<>();
		for (TargetResult on : results) {
			TargetResult off = results.stream()
				.filter(r -> r.name().equals(on.name() + "-" + offSuffix))
				.findFirst()
				.orElse(null);
			if (off != null && on.tpsReps().length >= 2 && off.tpsReps().length >= 2) {
				out.add(line(off, on));
			}
		}
		return out;
	}

	private static String line(TargetResult base, TargetResult other) {
		Stats.Welch tps = Stats.welch(base.tpsReps(), other.tpsReps());
		String p99 = base.p99Reps().length >= 2 && other.p99Reps().length >= 2
				? Stats.welch(base.p99Reps(), other.p99Reps()).verdict()
				: String.format(Locale.ROOT,
						"not compared (fewer than two repetitions on a side held the %,d samples a p99 needs)",
						Percentiles.minSamples(99));
		return other.name() + " vs " + base.name() + ": " + tps.verdict().replaceFirst(" — ", " TPS — ") + "; p99 "
				+ p99;
	}

	static List<String> of(List<TargetResult> results, boolean experiment) {
		List<String> out = new ArrayList<>();
		if (results.size() < 2 || results.stream().anyMatch(r -> r.tpsReps().length < 2)) {
			return out;
		}
		List<int[]> pairs = new ArrayList<>();
		for (int j = 1; j < results.size(); j++) {
			// a variant relative to the baseline,
			// or the gateway (first) relative to each other target
			pairs.add(experiment ? new int[] { 0, j } : new int[] { j, 0 });
		}
		for (int[] p : pairs) {
			out.add(line(results.get(p[0]), results.get(p[1])));
		}
		return out;
	}

}
