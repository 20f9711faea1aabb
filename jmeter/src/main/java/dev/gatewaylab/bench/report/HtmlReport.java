package dev.gatewaylab.bench.report;

import java.util.ArrayList;
import java.util.List;

/** Self-contained report.html: the markdown content as HTML tables plus inline SVG charts. */
public final class HtmlReport {

    private HtmlReport() {
    }

    public static String render(RunResult run) {
        List<TargetResult> ts = run.targets();
        List<String> names = ts.stream().map(TargetResult::name).toList();
        double[] tps = ts.stream().mapToDouble(TargetResult::tps).toArray();
        double[] ci = ts.stream().mapToDouble(TargetResult::tpsCi95).toArray();
        double[][] pct = new double[ts.size()][];
        for (int i = 0; i < ts.size(); i++) {
            TargetResult t = ts.get(i);
            pct[i] = new double[] {t.p50Ms(), t.p90Ms(), t.p99Ms()};
        }
        List<double[]> timelines = new ArrayList<>();
        ts.forEach(t -> timelines.add(t.timeline() == null ? new double[0] : t.timeline()));

        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Gateway Lab bench ")
                .append(Fmt.html(String.valueOf(run.environment().get("started"))))
                .append("</title><style>body{font-family:sans-serif;max-width:1000px;margin:2em auto;padding:0 1em}"
                        + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;"
                        + "text-align:right}td:first-child,th:first-child{text-align:left}.warn{color:#a00}"
                        + "svg{display:block;margin:1em 0}</style></head><body>");
        sb.append("<h1>Gateway Lab bench</h1><p>").append(Fmt.html(String.valueOf(run.settings().get("model"))))
                .append(", ").append(run.settings().get("repetitions")).append(" repetitions × ")
                .append(run.settings().get("duration_s")).append(" s per target, interleaved; warm-up ")
                .append(run.settings().get("warmup_s")).append(" s per target, discarded.</p>");
        sb.append("<h2>Results</h2><table><tr><th>target</th><th>samples</th><th>TPS (mean ± 95 % CI)</th>"
                + "<th>avg ms</th><th>min~max ms</th><th>p50</th><th>p90</th><th>p99</th><th>success</th></tr>");
        for (TargetResult t : ts) {
            sb.append("<tr><td>").append(Fmt.html(t.name())).append("</td><td>").append(t.samples())
                    .append("</td><td>").append(Fmt.tps(t)).append("</td><td>").append(Fmt.num(t.avgMs(), 2))
                    .append("</td><td>").append(t.minMs()).append("~").append(t.maxMs()).append("</td><td>")
                    .append(t.p50Ms()).append("</td><td>").append(t.p90Ms()).append("</td><td>").append(t.p99Ms())
                    .append("</td><td>").append(Fmt.pct(t.successRate())).append("</td></tr>");
        }
        sb.append("</table>");
        if (run.comparisons() != null && !run.comparisons().isEmpty()) {
            sb.append("<h2>Comparisons</h2><ul>");
            run.comparisons().forEach(c -> sb.append("<li>").append(Fmt.html(c)).append("</li>"));
            sb.append("</ul>");
        }
        sb.append(Svg.bars("Throughput per target (mean ± 95 % CI)", "req/s", names, tps, ci));
        sb.append(Svg.groupedBars("Latency percentiles per target", "ms", names, List.of("p50", "p90", "p99"), pct));
        sb.append(Svg.lines("Mean response time over time (1 s buckets, averaged over repetitions)", "seconds into run",
                "ms", names, timelines, null));
        if (!run.warnings().isEmpty()) {
            sb.append("<h2>Warnings</h2><ul>");
            run.warnings().forEach(w -> sb.append("<li class='warn'>").append(Fmt.html(w)).append("</li>"));
            sb.append("</ul>");
        }
        if (!run.notes().isEmpty()) {
            sb.append("<h2>Notes</h2><ul>");
            run.notes().forEach(n -> sb.append("<li>").append(Fmt.html(n)).append("</li>"));
            sb.append("</ul>");
        }
        sb.append("<h2>Errors</h2><ul>");
        boolean any = false;
        for (TargetResult t : ts) {
            for (var e : t.errors().entrySet()) {
                sb.append("<li>").append(Fmt.html(t.name())).append(": <code>").append(Fmt.html(e.getKey()))
                        .append("</code> × ").append(e.getValue()).append("</li>");
                any = true;
            }
        }
        sb.append(any ? "" : "<li>None.</li>").append("</ul>");
        sb.append("<h2>Resources during the measured runs</h2><table><tr><th>target</th><th>processes</th></tr>");
        for (TargetResult t : ts) {
            StringBuilder r = new StringBuilder();
            t.resources().forEach((k, v) -> r.append(Fmt.html(k)).append(": ").append(Fmt.html(Fmt.resource(v)))
                    .append("<br>"));
            sb.append("<tr><td>").append(Fmt.html(t.name())).append("</td><td style='text-align:left'>").append(r)
                    .append("</td></tr>");
        }
        sb.append("</table><p>CPU: mean over the run, 100 % = one core (machine: % of all cores). RSS: peak.</p>");
        sb.append("<h2>Repetitions</h2><table><tr><th>target</th><th>rep</th><th>samples</th><th>errors</th>"
                + "<th>TPS</th><th>avg ms</th><th>p99 ms</th></tr>");
        for (RepResult r : run.repetitions()) {
            sb.append("<tr><td>").append(Fmt.html(r.target())).append("</td><td>").append(r.rep()).append("</td><td>")
                    .append(r.samples()).append("</td><td>").append(r.errors()).append("</td><td>")
                    .append(Fmt.num(r.tps(), 1)).append("</td><td>").append(Fmt.num(r.avgMs(), 2))
                    .append("</td><td>").append(r.p99Ms()).append("</td></tr>");
        }
        sb.append("</table><h2>Environment</h2><ul>");
        run.environment().forEach((k, v) -> sb.append("<li>").append(Fmt.html(k)).append(": ")
                .append(Fmt.html(String.valueOf(v))).append("</li>"));
        sb.append("</ul><h2>Settings</h2><ul>");
        run.settings().forEach((k, v) -> sb.append("<li>").append(Fmt.html(k)).append(": ")
                .append(Fmt.html(String.valueOf(v))).append("</li>"));
        sb.append("</ul><p>Raw JTLs in <code>raw/</code>; JMeter dashboards in <code>jmeter-dashboard/&lt;target&gt;/"
                + "index.html</code>; data in <code>run.json</code>.</p></body></html>\n");
        return sb.toString();
    }
}
