package dev.gatewaylab.runner.sweep;

import dev.gatewaylab.runner.jmeter.JMeterHome;
import dev.gatewaylab.runner.latency.HistogramLog;
import dev.gatewaylab.runner.latency.OpenLoad;
import dev.gatewaylab.runner.metrics.LiveMetrics;
import dev.gatewaylab.runner.process.ProcSampler;
import dev.gatewaylab.runner.report.SweepReport;
import dev.gatewaylab.runner.result.EngineResult;
import dev.gatewaylab.runner.result.SweepResult;
import dev.gatewaylab.runner.result.WarmupResult;
import dev.gatewaylab.runner.run.Engines;
import dev.gatewaylab.runner.run.Load;
import dev.gatewaylab.runner.run.PlanRequest;
import dev.gatewaylab.runner.run.Progress;
import dev.gatewaylab.runner.run.RunDirectory;
import dev.gatewaylab.runner.run.Settings;
import dev.gatewaylab.runner.run.Target;
import dev.gatewaylab.runner.run.TargetOptions;
import dev.gatewaylab.runner.stats.Aggregate;
import dev.gatewaylab.runner.stats.Percentiles;
import dev.gatewaylab.runner.warmup.Warmup;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Runs a sweep: per target a warm-up at the lowest level, then one run per concurrency
 * level.
 */
final class Sweep {

	private final Settings s;

	private final List<Integer> levels;

	private final PrintStream out;

	private final PrintStream err;

	Sweep(Settings settings, List<Integer> levels, PrintStream out, PrintStream err) {
		this.s = settings;
		this.levels = levels;
		this.out = out;
		this.err = err;
	}

	int run(boolean start) throws Exception {
		return RunDirectory.run(s, start, out, this::run);
	}

	private int run(RunDirectory run) throws Exception {
		List<SweepResult.Point> points = new ArrayList<>();
		Map<String, WarmupResult> warmups = new LinkedHashMap<>();
		List<String> warnings = new ArrayList<>();
		List<String> engineEvents = new ArrayList<>();
		Engines engines = new Engines(s.remoteHosts());
		List<String> lost = new ArrayList<>();
		List<EngineResult> perEngine = null;
		long perLevel = s.durationSeconds() + 2;
		long perTarget = s.warmupSeconds() + levels.size() * perLevel;
		long planned = s.targets().size() * perTarget;
		out.printf("sweep: targets %s, levels %s, %d s each; about %d s; results %s%n",
				TargetOptions.joinTargets(s.targets()), levels, s.durationSeconds(), planned, run.dir());
		try (LiveMetrics metrics = new LiveMetrics(); Progress progress = new Progress(out, planned)) {
			JMeterHome.init(JMeterHome.defaultLocation());
			metrics.start(s.metricsHost(), s.metricsPort(), err);
			Load load = new Load(s, metrics, progress);
			Warmup warmup = new Warmup(s, load);
			for (int i = 0; i < s.targets().size(); i++) {
				Target t = s.targets().get(i);
				if (s.warmupSeconds() > 0) {
					WarmupResult w = warmup.run(t);
					warmups.put(t.name(), w);
					if (!w.steady()) {
						warnings.add(t.name() + ": still warming up when the sweep began — " + w.reason());
					}
					// warm until steady: it may have taken more than the window planned
					long after = (s.targets().size() - 1L - i) * perTarget;
					progress.replan(levels.size() * perLevel + after, after);
				}
				PlanRequest request = s.remoteHosts().isEmpty() ? s.catalog().request(t.plan(), s.jmeterProperties())
						: null;
				HistogramLog log = request == null ? null
						: HistogramLog.create(run.dir().resolve("raw").resolve(t.name() + "-latency.hlog"),
								t.name() + ": the latency generator in the closed model, one connection per thread");
				try {
					for (int level : levels) {
						progress.phase("sweep " + t.name() + " @" + level + " threads", s.durationSeconds());
						if (request != null) {
							OpenLoad.Window w = OpenLoad.closed(t.url(), request, level, s.durationSeconds());
							log.append(w, "threads-" + level);
							points.add(point(t, level, w));
							continue;
						}
						Path jtl = run.dir().resolve("raw").resolve(t.name() + "-c" + level + ".jtl");
						ProcSampler sampler = engineSampler();
						try {
							load.run(t, s.durationSeconds(), level, jtl, r -> {
							});
						}
						finally {
							if (sampler != null) {
								engines.usage(sampler.usage());
								sampler.close();
							}
						}
						Load.Measured m = Load.read(t, jtl, "at " + level + " threads", s.remoteHosts());
						engines.samples(t.name(), m.engines());
						Aggregate a = m.aggregate();
						points.add(new SweepResult.Point(t.name(), level, a.samples(), a.tps(), a.avgMs(), a.minMs(),
								a.maxMs(), p99Ms(a), a.successRate()));
					}
				}
				finally {
					if (log != null) {
						log.close();
						if (log.problem() != null) {
							warnings.add(log.problem());
						}
					}
				}
			}
			engineEvents.addAll(load.engineEvents());
			lost.addAll(load.lostEngines());
			perEngine = engines.results(lost, load.clockOffsets());
			warnings.addAll(Engines.warnings(perEngine, lost));
			warnings.addAll(load.clockOffsets().warnings());
		}
		warnings.addAll(engineEvents);
		List<String> nothing = new ArrayList<>();
		for (SweepResult.Point p : points) {
			if (p.samples() == 0) {
				nothing.add(p.target() + " at " + p.threads() + " threads: "
						+ (p.measuredBy().equals("JMeter") ? "the engine" : "the latency generator")
						+ " produced nothing");
			}
			else if (p.successRate() < 99) {
				warnings.add(String.format(Locale.ROOT, "%s at %d threads: %.2f %% of requests succeeded", p.target(),
						p.threads(), p.successRate()));
			}
		}
		nothing.forEach(n -> warnings.add("INVALID: " + n));
		SweepResult result = new SweepResult(settings(), warmups, points, warnings, perEngine);
		SweepReport.write(run.dir(), result);
		run.complete();
		out.println();
		out.print(SweepReport.table(result));
		warnings.forEach(w -> out.println("  warning: " + w));
		out.println("sweep report: " + run.dir().resolve("sweep.html"));
		if (!nothing.isEmpty()) {
			err.println("INVALID: " + String.join("; ", nothing));
			return 3;
		}
		return 0;
	}

	/** One level from the latency generator's closed-model window. */
	static SweepResult.Point point(Target t, int level, OpenLoad.Window w) {
		Histogram h = w.histogram();
		long n = h.getTotalCount();
		double us = 1000;
		Double p99Us = Percentiles.of(h, 99, us);
		return new SweepResult.Point(t.name(), level, n, n / w.seconds(), n == 0 ? 0 : h.getMean() / 1e6,
				n == 0 ? 0 : h.getMinValue() / 1_000_000, n == 0 ? 0 : Math.round(h.getMaxValue() / 1e6),
				p99Us == null ? null : Math.round(p99Us / 1000), w.successRate(), Percentiles.of(h, 50, us), p99Us,
				Percentiles.of(h, 99.9, us), "latency generator (closed model, µs)");
	}

	/**
	 * A JMeter level's p99 in whole ms, or null when it holds fewer samples than a p99
	 * needs ({@link Percentiles}).
	 */
	static Long p99Ms(Aggregate a) {
		return a.quotedMs(99);
	}

	/**
	 * Samples the CPU of the engines ./lab engine started on this machine; null when
	 * there is none.
	 */
	private ProcSampler engineSampler() {
		Map<String, Long> pids = Engines.localPids(s.labHome(), s.remoteHosts());
		return pids.isEmpty() || !ProcSampler.supported() ? null : ProcSampler.start(pids);
	}

	private Map<String, Object> settings() {
		Map<String, Object> settings = new LinkedHashMap<>(s.describe());
		settings.put("levels", levels);
		for (String k : List.of("repetitions", "threads", "rate", "model", "quick", "experiment",
				"jmeter_dashboards")) {
			settings.remove(k);
		}
		return settings;
	}

}
