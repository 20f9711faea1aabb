package dev.gatewaylab.bench;

import dev.gatewaylab.bench.engine.JMeterHome;
import dev.gatewaylab.bench.engine.PlanRunner;
import dev.gatewaylab.bench.metrics.LiveMetrics;
import dev.gatewaylab.bench.stats.Aggregate;
import dev.gatewaylab.bench.stats.JtlReader;
import dev.gatewaylab.bench.sweep.SweepCommand;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Runs a sweep: per target a warm-up, then one run per concurrency level. */
public final class SweepRun {

    private SweepRun() {
    }

    public static int run(SweepCommand cmd, PrintStream out, PrintStream err) throws Exception {
        TargetOptions o = cmd.target;
        Path labHome = TargetOptions.labHome();
        Map<String, String> props = TargetOptions.validatedProperties(o.jmeterProperties);
        List.of("threads", "duration", "host", "port", "protocol", "target").forEach(props::remove);
        List<Target> targets = o.resolveTargets(labHome.resolve("jmeter").resolve("plans"));
        List<String> remote = o.remoteHosts();
        double rate = 0;
        Settings s = new Settings(1, cmd.duration, cmd.warmup, cmd.levels.get(0), rate, 1, targets, props, labHome,
                o.resultsRoot(labHome), o.metricsPort, remote, false, null, false);
        if (remote.isEmpty()) {
            TargetOptions.checkReachable(targets, Duration.ofSeconds(3));
        }
        Path dir = Runs.createRunDir(s.resultsRoot());
        Runs.markIncomplete(dir, "sweep in progress (or interrupted)");
        Map<String, Object> settings = new LinkedHashMap<>(s.describe());
        settings.put("levels", cmd.levels);
        for (String k : List.of("repetitions", "threads", "rate", "model", "quick", "experiment", "jmeter_dashboards")) {
            settings.remove(k);
        }
        List<SweepCommand.Point> points = new ArrayList<>();
        long planned = (long) targets.size() * (cmd.warmup + (long) cmd.levels.size() * (cmd.duration + 2));
        out.printf("sweep: targets %s, levels %s, %d s each; about %d s; results %s%n",
                TargetOptions.joinTargets(targets), cmd.levels, cmd.duration, planned, dir);
        try (LiveMetrics metrics = new LiveMetrics(); Progress progress = new Progress(out, planned)) {
            JMeterHome.init(JMeterHome.defaultLocation());
            metrics.start(s.metricsPort(), err);
            PlanRunner runner = new PlanRunner(remote);
            for (Target t : targets) {
                Path plan = s.plansDir().resolve(t.plan() + ".jmx");
                LiveMetrics.Series series = metrics.series(t.name(), t.plan());
                if (cmd.warmup > 0) {
                    progress.phase("warm-up " + t.name(), cmd.warmup);
                    runner.run(plan, s.propertiesFor(t, cmd.warmup, cmd.levels.get(0)), null, r -> {
                        series.record(r);
                        progress.sample(r.isSuccessful());
                    }, Duration.ofSeconds(cmd.warmup + 60L));
                }
                for (int level : cmd.levels) {
                    progress.phase("sweep " + t.name() + " @" + level + " threads", cmd.duration);
                    Path jtl = dir.resolve("raw").resolve(t.name() + "-c" + level + ".jtl");
                    runner.run(plan, s.propertiesFor(t, cmd.duration, level), jtl, r -> {
                        series.record(r);
                        progress.sample(r.isSuccessful());
                    }, Duration.ofSeconds(cmd.duration + 60L));
                    series.idle();
                    Aggregate a = new Aggregate();
                    JtlReader.read(jtl, a::add);
                    points.add(new SweepCommand.Point(t.name(), level, a.samples(), a.tps(), a.avgMs(), a.minMs(),
                            a.maxMs(), a.percentileMs(99), a.successRate()));
                }
            }
            SweepCommand.write(dir, points, settings);
            Runs.markComplete(dir);
        } catch (Exception e) {
            Runs.markIncomplete(dir, "failed: " + e.getMessage());
            throw e;
        }
        out.println();
        out.print(SweepCommand.markdown(points, settings));
        out.println(String.format(Locale.ROOT, "sweep report: %s", dir.resolve("sweep.html")));
        return 0;
    }
}
