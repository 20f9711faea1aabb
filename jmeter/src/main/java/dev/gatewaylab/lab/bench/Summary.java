package dev.gatewaylab.lab.bench;

import dev.gatewaylab.lab.process.ProcSampler;
import dev.gatewaylab.lab.result.TargetResult;
import dev.gatewaylab.lab.run.Target;
import dev.gatewaylab.lab.stats.Aggregate;
import dev.gatewaylab.lab.stats.Stats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Turns what was measured for a target into its run.json record: TPS with CI, latency, resources. */
final class Summary {

    private Summary() {
    }

    static TargetResult of(TargetRun run) {
        Target t = run.target;
        Aggregate all = run.all();
        double[] tpsReps = run.tpsReps();
        return new TargetResult(t.name(), t.plan(), t.url().toString(), all.samples(), Stats.mean(tpsReps),
                Stats.ci95(tpsReps), all.avgMs(), all.minMs(), all.maxMs(), all.percentileMs(50),
                all.percentileMs(90), all.percentileMs(99), all.successRate(), all.errors(), tpsReps, run.p99Reps(),
                resources(run), run.meanTimeline());
    }

    /** Mean CPU % and peak RSS per process over the measured repetitions; a note where nothing could be read. */
    static Map<String, TargetResult.Resource> resources(TargetRun run) {
        Target t = run.target;
        Map<String, TargetResult.Resource> out = new LinkedHashMap<>();
        if (!t.local()) {
            out.put(t.service(), new TargetResult.Resource(null, null, "n/a (remote)"));
        }
        Map<String, List<ProcSampler.Usage>> byProc = new LinkedHashMap<>();
        run.usages.forEach(m -> m.forEach((k, v) -> byProc.computeIfAbsent(k, x -> new ArrayList<>()).add(v)));
        byProc.forEach((proc, us) -> {
            double[] cpu = us.stream().filter(ProcSampler.Usage::known).mapToDouble(ProcSampler.Usage::cpuPercent)
                    .toArray();
            double rss = us.stream().mapToDouble(ProcSampler.Usage::rssMiB).max().orElse(-1);
            out.put(proc, new TargetResult.Resource(cpu.length == 0 ? null : Stats.mean(cpu), rss < 0 ? null : rss,
                    null));
        });
        if (t.local() && !out.containsKey(t.service()) && !"nginx".equals(t.service())) {
            out.put(t.service(), new TargetResult.Resource(null, null,
                    "n/a (no .lab/" + t.service() + ".pid — not started by ./lab up)"));
        }
        return out;
    }
}
