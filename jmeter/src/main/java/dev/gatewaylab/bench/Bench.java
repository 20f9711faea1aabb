package dev.gatewaylab.bench;

import dev.gatewaylab.bench.engine.LabCollector;
import dev.gatewaylab.bench.engine.PlanRunner;
import dev.gatewaylab.bench.metrics.LiveMetrics;
import dev.gatewaylab.bench.process.ProcSampler;
import dev.gatewaylab.bench.report.Dashboards;
import dev.gatewaylab.bench.report.HtmlReport;
import dev.gatewaylab.bench.report.MarkdownReport;
import dev.gatewaylab.bench.report.RepResult;
import dev.gatewaylab.bench.report.RunResult;
import dev.gatewaylab.bench.report.TargetResult;
import dev.gatewaylab.bench.stats.Aggregate;
import dev.gatewaylab.bench.stats.JtlReader;
import dev.gatewaylab.bench.stats.Stats;
import dev.gatewaylab.bench.stats.Timeline;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.jmeter.util.JMeterUtils;

/** One bench run: warm-up, interleaved repetitions, statistics, reports. */
final class Bench {

    static final List<String> LAB_SERVICES = List.of("gateway", "study-service", "monolith");

    private final Settings s;
    private final Path dir;
    private final PrintStream out;
    private final LiveMetrics metrics;
    private final PlanRunner runner;
    private final GatewayLogging logging;
    private final Map<String, List<Aggregate>> repAggregates = new LinkedHashMap<>();
    private final Map<String, List<double[]>> timelines = new LinkedHashMap<>();
    private final Map<String, List<Map<String, ProcSampler.Usage>>> usages = new LinkedHashMap<>();
    private final List<RepResult> reps = new ArrayList<>();
    private final Map<String, Integer> warmups = new LinkedHashMap<>();
    private final List<String> notSteady = new ArrayList<>();

    static final int MAX_WARMUP_WINDOWS = 3;
    static final int STEADY_TOLERANCE_PERCENT = 10;

    Bench(Settings settings, Path dir, PrintStream out, LiveMetrics metrics, GatewayLogging logging) {
        this.s = settings;
        this.dir = dir;
        this.out = out;
        this.metrics = metrics;
        this.runner = new PlanRunner(settings.remoteHosts());
        this.logging = logging;
    }

    long plannedSeconds() {
        int n = s.targets().size();
        long overhead = 1; // engine start/stop per run
        // Warm-up usually stops after two windows (see warmUp); one with --quick.
        long windows = s.quick() ? 1 : 2;
        long warm = logging != null ? (long) s.repetitions() * n * (windows * (s.warmupSeconds() + overhead) + 30)
                : n * windows * (s.warmupSeconds() + overhead);
        return warm + (long) s.repetitions() * n * (s.durationSeconds() + overhead);
    }

    RunResult run() throws IOException, InterruptedException {
        Instant started = Instant.now();
        try (Progress progress = new Progress(out, plannedSeconds())) {
            if (logging == null && s.warmupSeconds() > 0) {
                for (Target t : s.targets()) {
                    warmUp(t, progress);
                }
            }
            for (int rep = 1; rep <= s.repetitions(); rep++) {
                for (Target t : s.targets()) {
                    if (logging != null) {
                        progress.phase("restart gateway: " + t.name(), 30);
                        logging.switchTo(t);
                        if (s.warmupSeconds() > 0) {
                            // A restarted gateway is a cold JVM: warm it until steady, as for the first round.
                            warmUp(t, progress);
                        }
                    }
                    progress.phase("measure " + t.name() + " rep " + rep + "/" + s.repetitions(), s.durationSeconds());
                    measure(t, rep, progress);
                }
            }
        } finally {
            if (logging != null) {
                logging.restoreDefault();
            }
        }
        return summarise(started);
    }

    /**
     * Warm-up (discarded) in windows of {@code --warmup} seconds until throughput is steady: two consecutive windows
     * within {@value #STEADY_TOLERANCE_PERCENT} % of each other, or {@value #MAX_WARMUP_WINDOWS} windows. A JVM target
     * on two cores is still compiling after one short window, and its measured reps then rise one after the other.
     */
    private void warmUp(Target t, Progress progress) throws IOException, InterruptedException {
        int maxWindows = s.quick() ? 1 : MAX_WARMUP_WINDOWS; // --quick is a smoke check with a fixed budget
        double previous = -1;
        for (int window = 1; window <= maxWindows; window++) {
            progress.phase("warm-up " + t.name() + " window " + window, s.warmupSeconds());
            long[] count = new long[1];
            long start = System.nanoTime();
            runOnce(t, s.warmupSeconds(), null, progress, r -> count[0]++);
            double tps = count[0] / ((System.nanoTime() - start) / 1e9);
            if (previous > 0 && Math.abs(tps - previous) <= previous * STEADY_TOLERANCE_PERCENT / 100.0) {
                warmups.put(t.name(), window);
                return;
            }
            previous = tps;
        }
        warmups.put(t.name(), maxWindows);
        if (maxWindows > 1) {
            notSteady.add(t.name());
        }
    }

    private void measure(Target t, int rep, Progress progress) throws IOException, InterruptedException {
        Path jtl = dir.resolve("raw").resolve(t.name() + "-rep" + rep + ".jtl");
        Map<String, Long> pids = pids(t);
        ProcSampler sampler = ProcSampler.supported() ? ProcSampler.start(pids) : null;
        try {
            runOnce(t, s.durationSeconds(), jtl, progress);
        } finally {
            if (sampler != null) {
                usages.computeIfAbsent(t.name(), k -> new ArrayList<>()).add(sampler.usage());
                sampler.close();
            }
        }
        if (!Files.exists(jtl)) {
            throw new LabException("no results file was written for " + t.name() + " rep " + rep + " (" + jtl + ")",
                    "check plan " + t.plan() + ".jmx and the JMeter log");
        }
        Aggregate a = new Aggregate();
        Timeline tl = new Timeline();
        JtlReader.read(jtl, sample -> {
            a.add(sample);
            tl.add(sample);
        });
        if (a.samples() == 0) {
            throw new LabException("no samples recorded for " + t.name() + " rep " + rep + " (plan " + t.plan()
                    + ".jmx, " + t.url() + ")", "check the plan's thread group and that the target answers");
        }
        repAggregates.computeIfAbsent(t.name(), k -> new ArrayList<>()).add(a);
        timelines.computeIfAbsent(t.name(), k -> new ArrayList<>()).add(tl.meanMs());
        reps.add(new RepResult(t.name(), rep, a.samples(), a.failures(), a.tps(), a.avgMs(), a.percentileMs(99),
                a.windowSeconds(), dir.relativize(jtl).toString()));
    }

    private void runOnce(Target t, int seconds, Path jtl, Progress progress) throws IOException, InterruptedException {
        runOnce(t, seconds, jtl, progress, r -> { });
    }

    private void runOnce(Target t, int seconds, Path jtl, Progress progress, LabCollector.SampleSink also)
            throws IOException, InterruptedException {
        Path plan = s.plansDir().resolve(t.plan() + ".jmx");
        LiveMetrics.Series series = metrics.series(t.name(), t.plan());
        LabCollector.SampleSink sink = r -> {
            series.record(r);
            progress.sample(r.isSuccessful());
            also.sample(r);
        };
        Duration maxWait = Duration.ofSeconds(seconds + s.rampupSeconds() + 40L);
        try {
            runner.run(plan, s.propertiesFor(t, seconds, s.threads()), jtl, sink, maxWait);
        } finally {
            series.idle();
        }
    }

    private Map<String, Long> pids(Target t) {
        Map<String, Long> pids = new LinkedHashMap<>();
        if (t.local()) {
            for (String svc : LAB_SERVICES) {
                Long pid = ProcSampler.pidFromFile(s.labHome(), svc);
                if (pid != null) {
                    pids.put(svc, pid);
                }
            }
        }
        pids.put("runner", ProcessHandle.current().pid());
        return pids;
    }

    private RunResult summarise(Instant started) {
        List<TargetResult> results = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        int cores = Runtime.getRuntime().availableProcessors();
        boolean allLocal = s.targets().stream().allMatch(Target::local) && s.remoteHosts().isEmpty();
        double runnerShare = allLocal ? cores * 100.0 / 2 : cores * 100.0;
        for (Target t : s.targets()) {
            List<Aggregate> list = repAggregates.get(t.name());
            Aggregate all = new Aggregate();
            list.forEach(all::addAll);
            double[] tpsReps = list.stream().mapToDouble(Aggregate::tps).toArray();
            double[] p99Reps = list.stream().mapToDouble(a -> a.percentileMs(99)).toArray();
            Map<String, TargetResult.Resource> res = resources(t);
            results.add(new TargetResult(t.name(), t.plan(), t.url().toString(), all.samples(), Stats.mean(tpsReps),
                    Stats.ci95(tpsReps), all.avgMs(), all.minMs(), all.maxMs(), all.percentileMs(50),
                    all.percentileMs(90), all.percentileMs(99), all.successRate(), all.errors(), tpsReps, p99Reps,
                    res, meanTimeline(timelines.get(t.name()))));
            TargetResult.Resource runnerRes = res.get("runner");
            if (runnerRes != null && runnerRes.cpuPercent() != null && runnerRes.cpuPercent() >= 0.8 * runnerShare) {
                warnings.add(String.format(Locale.ROOT, "generator saturation while measuring %s: the runner used "
                        + "%.0f %% CPU, ≥ 80 %% of its share (%.0f %%) — the load generator may have set this TPS",
                        t.name(), runnerRes.cpuPercent(), runnerShare));
            }
            TargetResult.Resource machine = res.get("machine");
            if (machine != null && machine.cpuPercent() != null && machine.cpuPercent() >= 90) {
                warnings.add(String.format(Locale.ROOT, "machine CPU-bound while measuring %s (%.0f %% of %d cores "
                        + "busy): generator and targets compete for cores; compare ratios between targets, not "
                        + "absolute TPS", t.name(), machine.cpuPercent(), cores));
            }
            TargetResult.Resource svc = res.get(t.service());
            if (svc != null && svc.cpuPercent() != null && svc.cpuPercent() < 10) {
                warnings.add(String.format(Locale.ROOT, "target %s looked idle (%s at %.0f %% CPU): the client, not "
                        + "the target, limited throughput", t.name(), t.service(), svc.cpuPercent()));
            }
            if (notSteady.contains(t.name())) {
                warnings.add(String.format(Locale.ROOT, "%s: throughput was not steady after %d warm-up windows of "
                        + "%d s (consecutive windows more than %d %% apart) — raise --warmup", t.name(),
                        MAX_WARMUP_WINDOWS, s.warmupSeconds(), STEADY_TOLERANCE_PERCENT));
            }
            if (Stats.risingTrend(tpsReps)) {
                warnings.add(String.format(Locale.ROOT, "%s: TPS rose from each repetition to the next (%s) — the "
                        + "target or the generator was still warming up; the mean understates steady state — raise "
                        + "--warmup or --repetitions", t.name(), Arrays.stream(tpsReps)
                        .mapToObj(v -> String.format(Locale.ROOT, "%.0f", v)).collect(Collectors.joining(" → "))));
            }
            if (all.successRate() < 99) {
                warnings.add(String.format(Locale.ROOT, "%s: success rate %.2f %% — TPS includes failed requests; "
                        + "see the errors section", t.name(), all.successRate()));
            }
        }
        if (!warmups.isEmpty()) {
            notes.add("Warm-up (discarded) ran in windows of " + s.warmupSeconds() + " s until two consecutive windows "
                    + "were within " + STEADY_TOLERANCE_PERCENT + " % TPS of each other: " + warmups.entrySet().stream()
                    .map(e -> e.getKey() + " " + e.getValue() + " window(s)").collect(Collectors.joining(", ")) + ".");
        }
        notes.add(String.format(Locale.ROOT, "Saturation rule: warn when the runner's mean CPU ≥ 80 %% of its share "
                + "of the machine (%s: %.0f %%, where 100 %% = one core), when the whole machine is ≥ 90 %% busy, or "
                + "when the target's own process used < 10 %% of a core.", allLocal ? "half the cores, as it shares "
                + "the machine with the targets" : "all cores", runnerShare));
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
        List<String> comparisons = s.repetitions() < 2 ? List.of() : comparisons(results, logging != null);
        Map<String, Object> env = environment(started, cores);
        return new RunResult(s.describe(), env, results, reps, comparisons, warnings, notes);
    }

    /**
     * Verdict lines: every pair (experiment modes, later vs earlier), or the first target (gateway) against each
     * other target. TPS and p99 via Welch's t-test over the per-repetition values.
     */
    static List<String> comparisons(List<TargetResult> results, boolean allPairs) {
        List<String> out = new ArrayList<>();
        if (results.size() < 2 || results.stream().anyMatch(r -> r.tpsReps().length < 2)) {
            return out;
        }
        List<int[]> pairs = new ArrayList<>();
        if (allPairs) {
            for (int i = 0; i < results.size(); i++) {
                for (int j = i + 1; j < results.size(); j++) {
                    pairs.add(new int[] {i, j});
                }
            }
        } else {
            for (int j = 1; j < results.size(); j++) {
                pairs.add(new int[] {j, 0}); // gateway (first) relative to each other target
            }
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

    private static double[] meanTimeline(List<double[]> lines) {
        int len = lines.stream().mapToInt(a -> a.length).max().orElse(0);
        double[] out = new double[len];
        for (int i = 0; i < len; i++) {
            double sum = 0;
            int n = 0;
            for (double[] l : lines) {
                if (i < l.length && !Double.isNaN(l[i])) {
                    sum += l[i];
                    n++;
                }
            }
            out[i] = n == 0 ? Double.NaN : sum / n;
        }
        return out;
    }

    private Map<String, TargetResult.Resource> resources(Target t) {
        Map<String, TargetResult.Resource> out = new LinkedHashMap<>();
        if (!t.local()) {
            out.put(t.service(), new TargetResult.Resource(null, null, "n/a (remote)"));
        }
        List<Map<String, ProcSampler.Usage>> list = usages.getOrDefault(t.name(), List.of());
        Map<String, List<ProcSampler.Usage>> byProc = new LinkedHashMap<>();
        list.forEach(m -> m.forEach((k, v) -> byProc.computeIfAbsent(k, x -> new ArrayList<>()).add(v)));
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

    private Map<String, Object> environment(Instant started, int cores) {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("started", started.toString());
        env.put("finished", Instant.now().toString());
        env.put("wall_s", Duration.between(started, Instant.now()).toSeconds());
        try {
            env.put("host", InetAddress.getLocalHost().getHostName());
        } catch (IOException e) {
            env.put("host", "unknown");
        }
        env.put("cores", cores);
        env.put("memory_total_mib", totalMemoryMiB());
        env.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch") + osRelease());
        env.put("jdk", System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version"));
        env.put("runner_max_heap_mib", Runtime.getRuntime().maxMemory() / (1024 * 1024));
        env.put("jmeter", JMeterUtils.getJMeterVersion());
        String v = Bench.class.getPackage().getImplementationVersion();
        env.put("runner", v == null ? "dev" : v);
        env.put("lab_home", s.labHome().toString());
        env.put("remote_engines", s.remoteHosts().isEmpty() ? "none (in-process engine)" : s.remoteHosts());
        return env;
    }

    private static long totalMemoryMiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return -1;
    }

    private static String osRelease() {
        try {
            for (String line : Files.readAllLines(Path.of("/etc/os-release"))) {
                if (line.startsWith("PRETTY_NAME=")) {
                    return " (" + line.substring(12).replace("\"", "") + ")";
                }
            }
        } catch (IOException e) {
            // not Linux
        }
        return "";
    }

    /** Writes dashboards (best effort), then run.json, report.md, report.html. */
    void write(RunResult run) throws IOException {
        List<String> warnings = new ArrayList<>(run.warnings());
        for (Target t : s.dashboards() ? s.targets() : List.<Target>of()) {
            List<Path> jtls = reps.stream().filter(r -> r.target().equals(t.name())).map(r -> dir.resolve(r.jtl()))
                    .toList();
            try {
                Dashboards.generate(jtls, dir.resolve("jmeter-dashboard").resolve(t.name()));
            } catch (Exception e) {
                warnings.add("JMeter dashboard for " + t.name() + " failed: " + e.getMessage());
            }
        }
        List<String> notes = new ArrayList<>(run.notes());
        if (!s.dashboards()) {
            notes.add("JMeter dashboards skipped (--quick or --no-dashboard); make one from the raw JTLs with "
                    + "'jmeter -g raw/<target>-rep1.jtl -o <dir>' or rerun with --dashboard.");
        }
        RunResult fin = new RunResult(run.settings(), run.environment(), run.targets(), run.repetitions(),
                run.comparisons(), warnings, notes);
        fin.write(dir.resolve("run.json"));
        Files.writeString(dir.resolve("report.md"), MarkdownReport.render(fin));
        Files.writeString(dir.resolve("report.html"), HtmlReport.render(fin));
    }
}
