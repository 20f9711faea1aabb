package dev.gatewaylab.runner.soak;

import dev.gatewaylab.runner.jmeter.JMeterHome;
import dev.gatewaylab.runner.latency.HistogramLog;
import dev.gatewaylab.runner.latency.OpenLoad;
import dev.gatewaylab.runner.metrics.LiveMetrics;
import dev.gatewaylab.runner.process.ProcSampler;
import dev.gatewaylab.runner.report.SoakReport;
import dev.gatewaylab.runner.result.SoakResult;
import dev.gatewaylab.runner.result.WarmupResult;
import dev.gatewaylab.runner.run.Load;
import dev.gatewaylab.runner.run.PlanRequest;
import dev.gatewaylab.runner.run.Progress;
import dev.gatewaylab.runner.run.RunDirectory;
import dev.gatewaylab.runner.run.Settings;
import dev.gatewaylab.runner.run.Target;
import dev.gatewaylab.runner.stats.Percentiles;
import dev.gatewaylab.runner.warmup.Warmup;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs a soak: warm-up, a probe of the target's maximum open-model throughput (unless
 * --rate is given), then open-model load at the rate for the whole soak, cut into
 * intervals. At the end of each interval: the requests, errors and p99 completed in it,
 * and the soaked process's RSS, heap after GC, open file descriptors, threads and dropped
 * log events. {@link Verdict} judges the drift.
 */
final class Soak {

	/**
	 * The soak rate as a share of the measured maximum, when no --rate is given
	 * (RELIABILITY.md item 13).
	 */
	static final double SHARE_OF_MAX = 0.70;

	private final Settings s;

	private final Options o;

	private final PrintStream out;

	/**
	 * What the command asked for: seconds in all, per interval, of the max probe; rate 0
	 * = 70 % of the max.
	 */
	record Options(int seconds, int intervalSeconds, int probeSeconds, double rate, Verdict.Limits limits,
			boolean start) {
	}

	Soak(Settings settings, Options options, PrintStream out) {
		this.s = settings;
		this.o = options;
		this.out = out;
	}

	int run() throws Exception {
		return RunDirectory.run(s, o.start(), out, this::run);
	}

	private int run(RunDirectory run) throws Exception {
		Target t = s.targets().get(0);
		List<String> warnings = new ArrayList<>();
		// the soak's window, and the start and stop of what loads it
		long soakSeconds = o.seconds() + 3L;
		long planned = s.warmupSeconds() + (o.rate() > 0 ? 0 : 2L * o.probeSeconds() + 6) + soakSeconds;
		out.printf(Locale.ROOT, "soak: %s (%s) for %d s in %d-s intervals, open model at %s; about %d s; results %s%n",
				t.name(), t.url(), o.seconds(), o.intervalSeconds(),
				o.rate() > 0 ? o.rate() + " req/s" : Math.round(SHARE_OF_MAX * 100) + " % of the measured max", planned,
				run.dir());
		Long pid = t.local() ? ProcSampler.pidFromFile(s.labHome(), t.service()) : null;
		if (pid == null) {
			warnings.add("no running " + t.service() + " process of ./lab found (.lab/" + t.service() + ".pid): RSS, "
					+ "heap after GC, file descriptors and threads unknown, not judged — start it with ./lab up");
		}
		ProcessProbe probe = new ProcessProbe(pid, t.managementUrl());
		WarmupResult warm = null;
		double maxTps = Double.NaN;
		double rate = o.rate();
		Intervals intervals = new Intervals();
		try (LiveMetrics metrics = new LiveMetrics(); Progress progress = new Progress(out, planned)) {
			JMeterHome.init(JMeterHome.defaultLocation());
			metrics.start(s.metricsHost(), s.metricsPort(), System.err);
			Load load = new Load(s, metrics, progress);
			if (s.warmupSeconds() > 0) {
				warm = new Warmup(s, load).run(t);
				if (!warm.steady()) {
					warnings.add(t.name() + ": still warming up when the soak began — " + warm.reason());
				}
				// warm until steady: it may have taken more than the window planned
				progress.replan(planned - s.warmupSeconds(), rate > 0 ? 0 : soakSeconds);
			}
			if (rate <= 0) {
				maxTps = probeMax(t, load, progress, run.dir());
				rate = Math.max(1, Math.round(SHARE_OF_MAX * maxTps));
				progress
					.note(String.format(Locale.ROOT, "open-model max %.1f req/s → soak at %.0f req/s", maxTps, rate));
				progress.replan(soakSeconds, 0);
			}
			progress.phase("soak " + t.name() + " at " + Math.round(rate) + " req/s", o.seconds());
			PlanRequest request = s.catalog().request(t.plan(), s.jmeterProperties());
			if (request != null) {
				String logProblem = engineWindows(t, request, rate, intervals, probe, progress,
						run.dir().resolve("raw"));
				if (logProblem != null) {
					warnings.add(logProblem);
				}
			}
			else {
				warnings.add("plan " + t.plan() + " declares no request in lab.properties: p99 per interval from "
						+ "JMeter, in whole ms");
				jmeterRun(t, load, rate, intervals, probe, run.dir());
			}
			warnings.addAll(load.engineEvents());
		}
		warnings.addAll(probe.problems());
		warnings.addAll(intervals.problems());
		List<SoakResult.Sample> samples = intervals.samples();
		SoakResult.Totals totals = intervals.totals();
		if (totals.requests() > 0 && Double.isNaN(totals.p99DriftPct())) {
			warnings.add(String.format(Locale.ROOT,
					"p99 drift not judged: the first or the last third of the intervals held fewer than the %,d "
							+ "samples a p99 needs — a longer --seconds or a higher --rate gives it",
					Percentiles.minSamples(99)));
		}
		List<String> findings = Verdict.findings(samples, totals, o.limits());
		SoakResult result = new SoakResult(settings(rate), maxTps, rate, warm, samples, totals, findings, warnings);
		SoakReport.write(run.dir(), result);
		run.complete();
		out.println();
		out.print(SoakReport.table(result));
		warnings.forEach(w -> out.println("  warning: " + w));
		out.println(SoakReport.verdict(result));
		out.println("soak report: " + run.dir().resolve("soak.md"));
		return result.stable() ? 0 : 3;
	}

	/**
	 * The soak through the latency generator: one open-model window per interval, back to
	 * back (µs response times; the process is read between two windows), each kept in
	 * {@code raw/<target>-latency.hlog}; returns why that log could not be written, or
	 * null.
	 */
	private String engineWindows(Target t, PlanRequest request, double rate, Intervals intervals, ProcessProbe probe,
			Progress progress, Path raw) {
		intervals.begin(System.nanoTime());
		long n = o.seconds() / o.intervalSeconds();
		HistogramLog log = HistogramLog.create(raw.resolve(t.name() + "-latency.hlog"),
				t.name() + ": " + OpenLoad.describe(CONNECTIONS, OpenLoad.Arrivals.POISSON));
		try {
			for (long i = 1; i <= n; i++) {
				int seconds = i < n ? o.intervalSeconds() : o.seconds() - (int) (n - 1) * o.intervalSeconds();
				progress.phase("soak " + t.name() + " at " + Math.round(rate) + " req/s, interval " + i + "/" + n,
						seconds);
				OpenLoad.Window w = OpenLoad.run(t.url(), request, rate, seconds, CONNECTIONS,
						OpenLoad.Arrivals.POISSON);
				log.append(w, null);
				intervals.record(w);
				intervals.cut(probe);
			}
		}
		finally {
			log.close();
		}
		return log.problem();
	}

	/** The soak as one JMeter open-model run, cut into intervals by a ticker. */
	private void jmeterRun(Target t, Load load, double rate, Intervals intervals, ProcessProbe probe, Path dir)
			throws Exception {
		ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
			Thread th = new Thread(r, "lab-soak-sampler");
			th.setDaemon(true);
			return th;
		});
		intervals.begin(System.nanoTime());
		Runnable tick = () -> intervals.cut(probe);
		long n = o.seconds() / o.intervalSeconds();
		for (long i = 1; i < n; i++) {
			ticker.schedule(tick, i * o.intervalSeconds(), TimeUnit.SECONDS);
		}
		try {
			load.runOpen(t, rate, o.seconds(), dir.resolve("raw").resolve(t.name() + "-soak.jtl"), intervals::record);
		}
		finally {
			ticker.shutdown();
			ticker.awaitTermination(60, TimeUnit.SECONDS);
		}
		tick.run(); // the last interval ends when the last arrivals are done
	}

	/** Keep-alive connections of the latency generator during a soak. */
	static final int CONNECTIONS = 32;

	/**
	 * The most the target completes in the open model: JMeter's open model opens a
	 * connection per arrival, which costs far more than the closed model's kept-alive
	 * connections (a soak at 70 % of the closed-model max overloaded the gateway within
	 * 40 s). So: the closed-model max first, then arrivals at that rate for
	 * --probe-seconds; the successful requests per second completed meanwhile are the
	 * open-model max.
	 */
	private double probeMax(Target t, Load load, Progress progress, Path dir) throws Exception {
		progress.phase("max probe " + t.name() + " @" + s.threads() + " threads (closed)", o.probeSeconds());
		Path closed = dir.resolve("raw").resolve(t.name() + "-max-closed.jtl");
		load.run(t, o.probeSeconds(), s.threads(), closed, r -> {
		});
		double closedMax = Load.read(t, closed, "max probe (closed)").aggregate().tps();
		double offered = Math.max(1, Math.round(closedMax));
		progress.phase("max probe " + t.name() + " at " + Math.round(offered) + " req/s (open)", o.probeSeconds());
		LongAdder ok = new LongAdder();
		long start = System.nanoTime();
		long end = start + TimeUnit.SECONDS.toNanos(o.probeSeconds());
		load.runOpen(t, offered, o.probeSeconds(), dir.resolve("raw").resolve(t.name() + "-max-open.jtl"), r -> {
			if (r.isSuccessful() && System.nanoTime() <= end) {
				ok.increment();
			}
		});
		return ok.sum() / (double) o.probeSeconds();
	}

	private Map<String, Object> settings(double rate) {
		Map<String, Object> m = new LinkedHashMap<>(s.describe());
		for (String k : List.of("repetitions", "duration_s", "latency_repetitions", "quick", "experiment",
				"jmeter_dashboards", "remote_hosts", "rampup_s")) {
			m.remove(k);
		}
		m.put("model",
				"open at " + rate + " req/s"
						+ (o.rate() > 0 ? " (--rate)"
								: " (" + Math.round(SHARE_OF_MAX * 100)
										+ " % of the open-model max: arrivals at the max of " + s.threads()
										+ " closed-model threads, " + o.probeSeconds() + " s each)"));
		m.put("latency_engine",
				s.catalog().request(s.targets().get(0).plan(), s.jmeterProperties()) != null
						? OpenLoad.describe(CONNECTIONS, OpenLoad.Arrivals.POISSON) + "; one window per interval"
						: "JMeter (whole ms)");
		m.put("soak_s", o.seconds());
		m.put("interval_s", o.intervalSeconds());
		m.put("max_error_rate_pct", o.limits().maxErrorRatePct());
		m.put("max_growth_pct", o.limits().maxGrowthPct());
		m.put("max_p99_drift_pct", o.limits().maxP99DriftPct());
		return m;
	}

}
