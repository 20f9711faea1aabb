package dev.gatewaylab.lab.bench;

import dev.gatewaylab.lab.result.TargetResult;
import dev.gatewaylab.lab.stats.Stats;
import java.util.ArrayList;
import java.util.List;

/**
 * Verdict lines: each experiment variant against the baseline (the first target), or the first target (gateway)
 * against each other target. TPS and p99 via Welch's t-test over the per-repetition values.
 */
final class Comparisons {

    private Comparisons() {
    }

    static List<String> of(List<TargetResult> results, boolean experiment) {
        List<String> out = new ArrayList<>();
        if (results.size() < 2 || results.stream().anyMatch(r -> r.tpsReps().length < 2)) {
            return out;
        }
        List<int[]> pairs = new ArrayList<>();
        for (int j = 1; j < results.size(); j++) {
            // a variant relative to the baseline, or the gateway (first) relative to each other target
            pairs.add(experiment ? new int[] {0, j} : new int[] {j, 0});
        }
        for (int[] p : pairs) {
            TargetResult base = results.get(p[0]);
            TargetResult other = results.get(p[1]);
            Stats.Welch tps = Stats.welch(base.tpsReps(), other.tpsReps());
            Stats.Welch p99 = Stats.welch(base.p99Reps(), other.p99Reps());
            out.add(other.name() + " vs " + base.name() + ": " + tps.verdict().replaceFirst(" — ", " TPS — ")
                    + "; p99 " + p99.verdict());
        }
        return out;
    }
}
