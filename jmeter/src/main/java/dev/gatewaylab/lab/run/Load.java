package dev.gatewaylab.lab.run;

import dev.gatewaylab.lab.engine.LabCollector;
import dev.gatewaylab.lab.engine.PlanRunner;
import dev.gatewaylab.lab.metrics.LiveMetrics;
import dev.gatewaylab.lab.stats.Aggregate;
import dev.gatewaylab.lab.stats.JtlReader;
import dev.gatewaylab.lab.stats.Timeline;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Drives one plan against one target for a number of seconds: every sample goes to the live metrics and the
 * progress line (and an optional extra sink); the JTL, when asked for, is read back into an {@link Aggregate}.
 * Shared by bench and sweep.
 */
public final class Load {

    private final Settings settings;
    private final PlanRunner runner;
    private final LiveMetrics metrics;
    private final Progress progress;

    public Load(Settings settings, LiveMetrics metrics, Progress progress) {
        this.settings = settings;
        this.runner = new PlanRunner(settings.remoteHosts());
        this.metrics = metrics;
        this.progress = progress;
    }

    public Progress progress() {
        return progress;
    }

    /** Runs the target's plan in the closed model; {@code jtl} null = no results file (warm-up). */
    public void run(Target t, int seconds, int threads, Path jtl, LabCollector.SampleSink also)
            throws IOException, InterruptedException {
        Duration maxWait = Duration.ofSeconds(seconds + settings.rampupSeconds() + 40L);
        run(t, settings.propertiesFor(t, seconds, threads, 0), jtl, also, maxWait);
    }

    /** The open model's tail after the last arrival (ms): in-flight requests get this long, then count as errors. */
    public static final long OPEN_TAIL_MS = 2000;

    /**
     * Runs the target's plan in the open model: Poisson arrivals at {@code rate}/s for {@code seconds}, then
     * {@value #OPEN_TAIL_MS} ms for the last arrivals to complete (the plan's {@code openTail}), not the plan's default
     * tail of {@code responseTimeout} per request.
     */
    public void runOpen(Target t, double rate, int seconds, Path jtl) throws IOException, InterruptedException {
        Map<String, String> props = settings.propertiesFor(t, seconds, settings.threads(), rate);
        props.put("openTail", Long.toString(OPEN_TAIL_MS));
        run(t, props, jtl, r -> { }, Duration.ofMillis(seconds * 1000L + OPEN_TAIL_MS + 40_000L));
    }

    private void run(Target t, Map<String, String> props, Path jtl, LabCollector.SampleSink also, Duration maxWait)
            throws IOException, InterruptedException {
        Path plan = settings.plansDir().resolve(t.plan() + ".jmx");
        LiveMetrics.Series series = metrics.series(t.name(), t.plan());
        LabCollector.SampleSink sink = r -> {
            series.record(r);
            progress.sample(r.isSuccessful());
            also.sample(r);
        };
        try {
            runner.run(plan, props, jtl, sink, maxWait);
        } finally {
            series.idle();
        }
    }

    /** The measured samples of one JTL; fails clearly when the file is missing or holds no sample. */
    public static Measured read(Target t, Path jtl, String what) throws IOException {
        if (!Files.exists(jtl)) {
            throw new LabException("no results file was written for " + t.name() + " " + what + " (" + jtl + ")",
                    "check plan " + t.plan() + ".jmx and the JMeter log");
        }
        Aggregate a = new Aggregate();
        Timeline tl = new Timeline();
        JtlReader.read(jtl, sample -> {
            a.add(sample);
            tl.add(sample);
        });
        if (a.samples() == 0) {
            throw new LabException("no samples recorded for " + t.name() + " " + what + " (plan " + t.plan()
                    + ".jmx, " + t.url() + ")", "check the plan's thread group and that the target answers");
        }
        return new Measured(a, tl.meanMs());
    }

    /** Aggregate of one JTL plus its mean response time per second. */
    public record Measured(Aggregate aggregate, double[] timeline) {
    }
}
