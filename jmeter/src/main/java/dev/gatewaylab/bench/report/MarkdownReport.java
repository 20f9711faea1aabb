package dev.gatewaylab.bench.report;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** report.md and the terminal table. */
public final class MarkdownReport {

    private MarkdownReport() {
    }

    public static String table(List<TargetResult> targets) {
        StringBuilder sb = new StringBuilder();
        sb.append("| target | samples | TPS (mean ± 95 % CI) | avg ms | min~max ms | p50 | p90 | p99 | success |\n");
        sb.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (TargetResult t : targets) {
            sb.append("| ").append(t.name()).append(" | ").append(t.samples()).append(" | ").append(Fmt.tps(t))
                    .append(" | ").append(Fmt.num(t.avgMs(), 2)).append(" | ").append(t.minMs()).append("~")
                    .append(t.maxMs()).append(" | ").append(t.p50Ms()).append(" | ").append(t.p90Ms()).append(" | ")
                    .append(t.p99Ms()).append(" | ").append(Fmt.pct(t.successRate())).append(" |\n");
        }
        return sb.toString();
    }

    public static String render(RunResult run) {
        StringBuilder sb = new StringBuilder();
        sb.append("# Gateway Lab bench — ").append(run.environment().get("started")).append("\n\n");
        sb.append("Settings: ").append(run.settings().get("model")).append(", ")
                .append(run.settings().get("repetitions")).append(" repetitions × ")
                .append(run.settings().get("duration_s")).append(" s per target, interleaved; warm-up ")
                .append(run.settings().get("warmup_s")).append(" s per target, discarded.\n\n");
        sb.append("## Results\n\n").append(table(run.targets())).append('\n');
        sb.append("TPS: mean of the per-repetition TPS with its 95 % confidence interval (Student t, n−1 df). ")
                .append("Latencies: HdrHistogram over all measured samples of all repetitions.\n\n");
        if (run.comparisons() != null && !run.comparisons().isEmpty()) {
            sb.append("## Comparisons\n\n");
            run.comparisons().forEach(c -> sb.append("- ").append(c).append('\n'));
            sb.append('\n');
        }
        sb.append("## Errors\n\n");
        boolean any = false;
        for (TargetResult t : run.targets()) {
            for (Map.Entry<String, Long> e : t.errors().entrySet()) {
                sb.append("- ").append(t.name()).append(": `").append(e.getKey()).append("` × ").append(e.getValue())
                        .append('\n');
                any = true;
            }
        }
        if (!any) {
            sb.append("None.\n");
        }
        sb.append("\n## Resources during the measured runs\n\n");
        Set<String> procs = new LinkedHashSet<>();
        run.targets().forEach(t -> procs.addAll(t.resources().keySet()));
        sb.append("| target |");
        procs.forEach(p -> sb.append(' ').append(p).append(" |"));
        sb.append("\n|---|");
        procs.forEach(p -> sb.append("---:|"));
        sb.append('\n');
        for (TargetResult t : run.targets()) {
            sb.append("| ").append(t.name()).append(" |");
            procs.forEach(p -> sb.append(' ').append(Fmt.resource(t.resources().get(p))).append(" |"));
            sb.append('\n');
        }
        sb.append("\nCPU: mean over the run, 100 % = one core (`machine`: % of all cores). RSS: peak, from /proc.\n");
        if (!run.warnings().isEmpty()) {
            sb.append("\n## Warnings\n\n");
            run.warnings().forEach(w -> sb.append("- ⚠ ").append(w).append('\n'));
        }
        if (!run.notes().isEmpty()) {
            sb.append("\n## Notes\n\n");
            run.notes().forEach(n -> sb.append("- ").append(n).append('\n'));
        }
        sb.append("\n## Repetitions\n\n| target | rep | samples | errors | TPS | avg ms | p99 ms | window s |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (RepResult r : run.repetitions()) {
            sb.append("| ").append(r.target()).append(" | ").append(r.rep()).append(" | ").append(r.samples())
                    .append(" | ").append(r.errors()).append(" | ").append(Fmt.num(r.tps(), 1)).append(" | ")
                    .append(Fmt.num(r.avgMs(), 2)).append(" | ").append(r.p99Ms()).append(" | ")
                    .append(Fmt.num(r.windowSeconds(), 1)).append(" |\n");
        }
        sb.append("\n## Environment\n\n");
        run.environment().forEach((k, v) -> sb.append("- ").append(k).append(": ").append(v).append('\n'));
        sb.append("\n## Settings\n\n");
        run.settings().forEach((k, v) -> sb.append("- ").append(k).append(": ").append(v).append('\n'));
        sb.append("\nRaw JTLs: `raw/`; JMeter dashboards: `jmeter-dashboard/<target>/index.html`; data: `run.json`.\n");
        return sb.toString();
    }
}
