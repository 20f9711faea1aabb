package dev.gatewaylab.lab.bench;

import dev.gatewaylab.lab.result.TargetResult;
import dev.gatewaylab.lab.run.Settings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** The method notes of a bench report: how warm-up, saturation and the load model were handled. */
final class Notes {

    private Notes() {
    }

    static List<String> of(Settings s, List<TargetResult> results, Map<String, Warmup.Outcome> warmups,
                           Diagnosis.Context c) {
        List<String> notes = new ArrayList<>();
        if (!warmups.isEmpty()) {
            notes.add("Warm-up (discarded) ran in windows of " + s.warmupSeconds() + " s until two consecutive windows "
                    + "were within " + Warmup.TOLERANCE_PERCENT + " % TPS of each other: " + warmups.entrySet().stream()
                    .map(e -> e.getKey() + " " + e.getValue().windows() + " window(s)")
                    .collect(Collectors.joining(", ")) + ".");
        }
        notes.add(String.format(Locale.ROOT, "Saturation rule: warn when the runner's mean CPU ≥ 80 %% of its share "
                + "of the machine (%s: %.0f %%, where 100 %% = one core), when the whole machine is ≥ 90 %% busy, or "
                + "when the target's own process used < 10 %% of a core.", c.allLocal() ? "half the cores, as it "
                + "shares the machine with the targets" : "all cores", c.runnerShare()));
        if (s.rate() <= 0) {
            for (TargetResult r : results) {
                double predicted = s.threads() / (r.avgMs() / 1000.0) * Math.max(1, s.remoteHosts().size());
                notes.add(String.format(Locale.ROOT, "Little's law (closed model), %s: %d threads / %.2f ms avg = "
                        + "%,.0f req/s predicted vs %,.0f measured — with a fixed number of client threads the "
                        + "throughput is threads ÷ latency; the client set the load. Use --rate (open model) or sweep "
                        + "for capacity.", r.name(), s.threads(), r.avgMs(), predicted, r.tps()));
            }
        } else {
            notes.add("Open model: JMeter's Open Model Thread Group issued " + s.rate() + " req/s; latency is measured"
                    + " from the actual send time (JMeter does not correct for coordinated omission).");
        }
        if (!s.remoteHosts().isEmpty()) {
            notes.add("Remote engines " + s.remoteHosts() + ": each host runs jmeter-server (JMeter 5.6.3, with the "
                    + "plan's data files if any); the -J properties were sent to every engine (jmeter -G); the JTLs and "
                    + "live metrics aggregate all engines; threads are per engine. CPU/RSS of remote processes: n/a.");
        }
        if (!s.dashboards()) {
            notes.add("JMeter dashboards skipped (--quick or --no-dashboard); make one from the raw JTLs with "
                    + "'jmeter -g raw/<target>-rep1.jtl -o <dir>' or rerun with --dashboard.");
        }
        return notes;
    }
}
