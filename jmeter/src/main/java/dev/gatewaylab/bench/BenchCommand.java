package dev.gatewaylab.bench;

import dev.gatewaylab.bench.engine.JMeterHome;
import dev.gatewaylab.bench.metrics.LiveMetrics;
import dev.gatewaylab.bench.report.MarkdownReport;
import dev.gatewaylab.bench.report.RunResult;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.jmeter.engine.StandardJMeterEngine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Warm up, then run the targets interleaved and repeated; print the table and write results/<stamp>/.")
final class BenchCommand implements Callable<Integer> {

    @Mixin
    TargetOptions target = new TargetOptions();

    @Option(names = "--quick", description = "Short run for smoke checks (< 45 s for 3 targets): warm-up 3 s, 2 reps × 4 s.")
    boolean quick;

    @Option(names = "--repetitions", description = "Measured repetitions per target (default 3; quick 2).")
    Integer repetitions;

    @Option(names = "--duration", description = "Seconds per measured run (default 8; quick 4). Defaults finish in about 3 min for 3 targets.")
    Integer duration;

    @Option(names = "--warmup", description = "Warm-up window in seconds, discarded: windows repeat (at most 3) until two in a row are within 10 %% TPS (default 5; quick: one window of 3).")
    Integer warmup;

    @Option(names = "--threads", description = "JMeter threads, closed model (default 8).")
    Integer threads;

    @Option(names = "--rate", description = "Open model: requests/s (JMeter Open Model Thread Group); 0 = closed model.")
    Double rate;

    @Option(names = "--dashboard", negatable = true, description = "Generate JMeter's HTML dashboard per target "
            + "(default on; off with --quick, where its ~5 s per target would break the time budget).")
    Boolean dashboard;

    @Option(names = "--experiment", description = "logging: targets become the gateway in each logging mode (off, logback, log4j2-sync, log4j2-async).")
    String experiment;

    private final PrintStream out;
    private final PrintStream err;

    BenchCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** Turns the options into validated settings; throws LabException (exit 2) on any bad input. */
    Settings settings() {
        Path labHome = TargetOptions.labHome();
        Map<String, String> props = TargetOptions.validatedProperties(target.jmeterProperties);
        int reps = positive("--repetitions", repetitions, quick ? 2 : 3);
        int dur = positive("--duration", duration, intProp(props, "duration", quick ? 4 : 8));
        int warm = nonNegative("--warmup", warmup, quick ? 3 : 5);
        int thr = positive("--threads", threads, intProp(props, "threads", 8));
        double r = rate != null ? rate : props.containsKey("rate") ? Double.parseDouble(props.get("rate")) : 0;
        if (r < 0 || Double.isNaN(r) || Double.isInfinite(r)) {
            throw new LabException("invalid --rate " + rate + ": must be ≥ 0", "use e.g. --rate 200, or 0 for the closed model");
        }
        int rampup = intProp(props, "rampup", 1);
        for (String k : List.of("threads", "duration", "rate", "host", "port", "protocol", "rampup", "target")) {
            props.remove(k);
        }
        List<Target> targets;
        if (experiment != null) {
            if (!experiment.equals("logging")) {
                throw new LabException("unknown experiment '" + experiment + "'", "the only experiment is: --experiment logging");
            }
            GatewayLogging.requireScript();
            String plan = TargetOptions.requirePlan(labHome.resolve("jmeter/plans"),
                    target.plan == null ? "gateway" : target.plan);
            targets = GatewayLogging.targets(plan, TargetOptions.parseUrl("gateway",
                    target.gatewayUrl != null ? target.gatewayUrl : "http://" + target.targetHost + ":8080"));
        } else {
            targets = target.resolveTargets(labHome.resolve("jmeter").resolve("plans"));
        }
        if (target.metricsPort < 0 || target.metricsPort > 65535) {
            throw new LabException("invalid --metrics-port " + target.metricsPort, "use 0..65535 (0 disables)");
        }
        return new Settings(reps, dur, warm, thr, r, rampup, targets, props, labHome,
                target.resultsRoot(labHome), target.metricsPort, target.remoteHosts(), quick, experiment,
                dashboard != null ? dashboard : !quick);
    }

    @Override
    public Integer call() throws Exception {
        Settings s = settings();
        if (s.remoteHosts().isEmpty()) {
            TargetOptions.checkReachable(s.targets(), Duration.ofSeconds(3));
        }
        Path dir = Runs.createRunDir(s.resultsRoot());
        Runs.markIncomplete(dir, "run in progress (or interrupted)");
        System.setProperty("lab.log", dir.resolve("jmeter.log").toString());
        AtomicBoolean done = new AtomicBoolean();
        Thread hook = new Thread(() -> {
            if (!done.get()) {
                Runs.markIncomplete(dir, "interrupted before the report was written");
                StandardJMeterEngine.stopEngineNow();
            }
        }, "lab-interrupt");
        Runtime.getRuntime().addShutdownHook(hook);
        long t0 = System.nanoTime();
        try (LiveMetrics metrics = new LiveMetrics()) {
            JMeterHome.init(JMeterHome.defaultLocation());
            int port = metrics.start(s.metricsPort(), err);
            GatewayLogging logging = s.experiment() == null ? null
                    : new GatewayLogging(GatewayLogging.requireScript(), dir.resolve("lab-script.log"),
                            s.targets().get(0).url());
            Bench bench = new Bench(s, dir, out, metrics, logging);
            out.printf("bench: %d target(s) %s, %d reps × %d s, warm-up %d s, %s; about %d s; results %s%s%n",
                    s.targets().size(), TargetOptions.joinTargets(s.targets()), s.repetitions(), s.durationSeconds(),
                    s.warmupSeconds(), s.describe().get("model"), bench.plannedSeconds(), dir,
                    port > 0 ? "; live metrics http://localhost:" + port + "/metrics" : "");
            RunResult run = bench.run();
            bench.write(run);
            Runs.markComplete(dir);
            done.set(true);
            out.println();
            out.print(MarkdownReport.table(run.targets()));
            if (run.comparisons() != null) {
                run.comparisons().forEach(c -> out.println("  " + c));
            }
            run.warnings().forEach(w -> out.println("  warning: " + w));
            out.printf("report: %s (report.html, run.json%s); wall time %d s%n", dir.resolve("report.md"),
                    s.dashboards() ? ", jmeter-dashboard/" : "", (System.nanoTime() - t0) / 1_000_000_000L);
            return 0;
        } catch (LabException e) {
            Runs.markIncomplete(dir, "failed: " + e.getMessage());
            done.set(true);
            throw e;
        } catch (Exception e) {
            Runs.markIncomplete(dir, "failed: " + e);
            done.set(true);
            throw e;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down
            }
        }
    }

    private static int intProp(Map<String, String> props, String key, int dflt) {
        return props.containsKey(key) ? Integer.parseInt(props.get(key)) : dflt;
    }

    static int positive(String name, Integer value, int dflt) {
        int v = value == null ? dflt : value;
        if (v < 1) {
            throw new LabException("invalid " + name + " " + v + ": must be ≥ 1", "pass a positive whole number");
        }
        return v;
    }

    static int nonNegative(String name, Integer value, int dflt) {
        int v = value == null ? dflt : value;
        if (v < 0) {
            throw new LabException("invalid " + name + " " + v + ": must be ≥ 0", "pass 0 or a positive whole number");
        }
        return v;
    }
}
