package dev.gatewaylab.lab.bench;

import dev.gatewaylab.lab.process.ProcSampler;
import dev.gatewaylab.lab.run.Target;
import dev.gatewaylab.lab.stats.Aggregate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Everything measured for one target during a run: its warm-up outcome and, per repetition, samples and usage. */
final class TargetRun {

    final Target target;
    final List<Aggregate> reps = new ArrayList<>();
    final List<double[]> timelines = new ArrayList<>();
    final List<Map<String, ProcSampler.Usage>> usages = new ArrayList<>();
    Warmup.Outcome warmup;

    TargetRun(Target target) {
        this.target = target;
    }

    double[] tpsReps() {
        return reps.stream().mapToDouble(Aggregate::tps).toArray();
    }

    double[] p99Reps() {
        return reps.stream().mapToDouble(a -> a.percentileMs(99)).toArray();
    }

    Aggregate all() {
        Aggregate all = new Aggregate();
        reps.forEach(all::addAll);
        return all;
    }

    /** Per-second mean response time averaged over the repetitions (NaN where no repetition had samples). */
    double[] meanTimeline() {
        int len = timelines.stream().mapToInt(a -> a.length).max().orElse(0);
        double[] out = new double[len];
        for (int i = 0; i < len; i++) {
            double sum = 0;
            int n = 0;
            for (double[] l : timelines) {
                if (i < l.length && !Double.isNaN(l[i])) {
                    sum += l[i];
                    n++;
                }
            }
            out[i] = n == 0 ? Double.NaN : sum / n;
        }
        return out;
    }
}
