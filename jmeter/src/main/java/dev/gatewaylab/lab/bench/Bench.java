package dev.gatewaylab.lab.bench;

import dev.gatewaylab.lab.engine.Dashboards;
import dev.gatewaylab.lab.metrics.LiveMetrics;
import dev.gatewaylab.lab.process.ProcSampler;
import dev.gatewaylab.lab.report.BenchReport;
import dev.gatewaylab.lab.result.RepResult;
import dev.gatewaylab.lab.result.RunResult;
import dev.gatewaylab.lab.result.TargetResult;
import dev.gatewaylab.lab.run.Load;
import dev.gatewaylab.lab.run.Progress;
import dev.gatewaylab.lab.run.Settings;
import dev.gatewaylab.lab.run.Target;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One bench run as a pipeline: warm up → measure (interleaved repetitions) → summarise → diagnose → write.
 * State is one {@link TargetRun} per target.
 */
final class Bench {

    private final Settings s;
    private final Path dir;
    private final PrintStream out;
    private final LiveMetrics metrics;
    private final LoggingExperiment logging;
    private final Map<String, TargetRun> runs = new LinkedHashMap<>();
    private final List<RepResult> reps = new ArrayList<>();

    Bench(Settings settings, Path dir, PrintStream out, LiveMetrics metrics, LoggingExperiment logging) {
        this.s = settings;
        this.dir = dir;
        this.out = out;
        this.metrics = metrics;
        this.logging = logging;
        settings.targets().forEach(t -> runs.put(t.name(), new TargetRun(t)));
    }

    long plannedSeconds() {
        int n = s.targets().size();
        long overhead = 1; // engine start/stop per run
        long windows = s.quick() ? 1 : 2; // warm-up usually stops after two windows; one with --quick
        long warm = logging != null ? (long) s.repetitions() * n * (windows * (s.warmupSeconds() + overhead) + 30)
                : n * windows * (s.warmupSeconds() + overhead);
        return warm + (long) s.repetitions() * n * (s.durationSeconds() + overhead);
    }

    /** Runs the pipeline and writes the reports; returns what was written (warnings included). */
    RunResult run() throws IOException, InterruptedException {
        Instant started = Instant.now();
        try (Progress progress = new Progress(out, plannedSeconds())) {
            Load load = new Load(s, metrics, progress);
            Warmup warmup = new Warmup(s, load);
            if (logging == null && s.warmupSeconds() > 0) {
                for (TargetRun r : runs.values()) {
                    r.warmup = warmup.run(r.target);
                }
            }
            for (int rep = 1; rep <= s.repetitions(); rep++) {
                for (TargetRun r : runs.values()) {
                    if (logging != null) {
                        progress.phase("restart gateway: " + r.target.name(), 30);
                        logging.switchTo(r.target);
                        if (s.warmupSeconds() > 0) {
                            r.warmup = warmup.run(r.target); // a restarted gateway is a cold JVM
                        }
                    }
                    progress.phase("measure " + r.target.name() + " rep " + rep + "/" + s.repetitions(),
                            s.durationSeconds());
                    measure(load, r, rep);
                }
            }
        } finally {
            if (logging != null) {
                logging.restoreDefault();
            }
        }
        List<TargetResult> results = runs.values().stream().map(Summary::of).toList();
        RunResult run = diagnose(started, results);
        return write(run);
    }

    private void measure(Load load, TargetRun r, int rep) throws IOException, InterruptedException {
        Path jtl = dir.resolve("raw").resolve(r.target.name() + "-rep" + rep + ".jtl");
        ProcSampler sampler = ProcSampler.supported() ? ProcSampler.start(pids(r.target)) : null;
        try {
            load.run(r.target, s.durationSeconds(), s.threads(), jtl, x -> { });
        } finally {
            if (sampler != null) {
                r.usages.add(sampler.usage());
                sampler.close();
            }
        }
        Load.Measured m = Load.read(r.target, jtl, "rep " + rep);
        r.reps.add(m.aggregate());
        r.timelines.add(m.timeline());
        reps.add(new RepResult(r.target.name(), rep, m.aggregate().samples(), m.aggregate().failures(),
                m.aggregate().tps(), m.aggregate().avgMs(), m.aggregate().percentileMs(99),
                m.aggregate().windowSeconds(), dir.relativize(jtl).toString()));
    }

    /** The lab's own processes (by pid file) plus this runner. */
    private Map<String, Long> pids(Target t) {
        Map<String, Long> pids = new LinkedHashMap<>();
        if (t.local()) {
            for (String svc : s.catalog().services().keySet()) {
                Long pid = ProcSampler.pidFromFile(s.labHome(), svc);
                if (pid != null) {
                    pids.put(svc, pid);
                }
            }
        }
        pids.put("runner", ProcessHandle.current().pid());
        return pids;
    }

    private RunResult diagnose(Instant started, List<TargetResult> results) {
        boolean allLocal = s.targets().stream().allMatch(Target::local) && s.remoteHosts().isEmpty();
        Diagnosis.Context c = new Diagnosis.Context(Runtime.getRuntime().availableProcessors(), allLocal,
                s.warmupSeconds());
        List<String> warnings = new ArrayList<>();
        Map<String, Warmup.Outcome> warmups = new LinkedHashMap<>();
        for (TargetResult r : results) {
            TargetRun run = runs.get(r.name());
            warnings.addAll(Diagnosis.warnings(r, run.target.service(), run.warmup, c));
            if (run.warmup != null) {
                warmups.put(r.name(), run.warmup);
            }
        }
        List<String> comparisons = s.repetitions() < 2 ? List.of() : Comparisons.of(results, logging != null);
        return new RunResult(s.describe(), Environment.probe(started, s.labHome(), s.remoteHosts()), results, reps,
                comparisons, warnings, Notes.of(s, results, warmups, c));
    }

    /** JMeter dashboards (best effort: a failure becomes a warning), then run.json, report.md, report.html. */
    private RunResult write(RunResult run) throws IOException {
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
        RunResult fin = run.withWarningsAndNotes(warnings, run.notes());
        BenchReport.write(dir, fin);
        return fin;
    }
}
