package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.answer.Validity;
import dev.gatewaylab.runner.curve.LatencyPlan;
import dev.gatewaylab.runner.experiment.Experiment;
import dev.gatewaylab.runner.experiment.Restarts;
import dev.gatewaylab.runner.experiment.Through;
import dev.gatewaylab.runner.jmeter.JMeterHome;
import dev.gatewaylab.runner.latency.OpenLoad;
import dev.gatewaylab.runner.metrics.LiveMetrics;
import dev.gatewaylab.runner.report.BenchReport;
import dev.gatewaylab.runner.report.CpuChainReport;
import dev.gatewaylab.runner.report.CpuSplitReport;
import dev.gatewaylab.runner.report.LatencyReport;
import dev.gatewaylab.runner.result.RunResult;
import dev.gatewaylab.runner.run.Catalog;
import dev.gatewaylab.runner.run.LabException;
import dev.gatewaylab.runner.run.LabScript;
import dev.gatewaylab.runner.run.LoadOptions;
import dev.gatewaylab.runner.run.RunDirectory;
import dev.gatewaylab.runner.run.Settings;
import dev.gatewaylab.runner.run.Target;
import dev.gatewaylab.runner.run.TargetOptions;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "bench", mixinStandardHelpOptions = true,
		description = "Warm up, then run the targets interleaved and repeated; print the table and write results/<stamp>/.")
public final class BenchCommand implements Callable<Integer> {

	@Mixin
	TargetOptions target = new TargetOptions();

	@Mixin
	LoadOptions load = new LoadOptions();

	@Option(names = "--quick",
			description = "Short run for smoke checks (≈ 45 s for 3 targets, apps started and stopped by it): one 2 s warm-up window, 2 reps × 2 s, the latency generator 1 s per target and rate (no JMeter equal-load rep); its answer says \"smoke run, not for quoting\" and it warns that warm-up was not judged.")
	boolean quick;

	@Option(names = "--repetitions",
			description = "Measured closed-model repetitions per target, interleaved (default 8; with --experiment 5; quick 2).")
	Integer repetitions;

	@Option(names = "--latency-repetitions",
			description = "Interleaved repetitions per target at the answer rate, measured by the latency generator (open model, µs) in windows of 2 s (longer where a p99 needs the samples), after the throughput phase (default 5; quick 1, of 1 s; 0 skips the latency phase).")
	Integer latencyRepetitions;

	@Option(names = "--latency-levels", split = ",",
			description = "The latency curve's arrival rates as multiples of the answer rate (--rate, default a fifth of the slowest target's TPS): default 1,2,3,4, i.e. 20/40/60/80 %% of that TPS.")
	List<Double> latencyLevels;

	@Option(names = "--latency-arrivals",
			description = "How the latency generator spaces its arrivals at the chosen rate: uniform (default; equal gaps of 1/rate, as wrk2, Vegeta and k6 send them) or poisson (exponential gaps: the bursts of many independent clients, which queue in the hop and raise its added latency).")
	String latencyArrivals;

	@Option(names = "--latency-connections",
			description = "Keep-alive connections the latency generator opens per target before its first arrival (default 32).")
	Integer latencyConnections;

	@Option(names = "--min-success",
			description = "Success rate in %% under which a target makes the run INVALID: no answer, exit 3 (default 99).")
	Double minSuccess;

	@Option(names = "--dashboard", negatable = true, description = "Generate JMeter's HTML dashboard per target "
			+ "(default on; off with --quick, where its ~5 s per target would break the time budget).")
	Boolean dashboard;

	@Option(names = "--experiment", description = "Targets become variants of a service, each restarted with its own "
			+ "environment: logging (logback, log4j2-sync, log4j2-async, each against its own access log switched off "
			+ "at run time, verdict within 3 %%), tuning (each cost lever against today's defaults), tuning-mvc (each "
			+ "lever of the MVC gateway, gateway-mvc, against its defaults), virtual-threads (study-service's slow "
			+ "endpoint at 600 req/s, open model, direct and through the gateway — --targets direct,gateway,gateway-mvc "
			+ "adds the MVC gateway —, platform vs virtual threads), apm (off, scouter: the Scouter agent on the gateway), deny-list (3m, 30m: the "
			+ "gateway's IP deny list with 3 M and 30 M generated rules on allowed traffic, each against its filter "
			+ "bypassed at run time, verdict within 3 %%) or tracing (absent, sampled-0, sampled-10, sampled-100: "
			+ "the gateway without tracing and with it at 0/10/100 %% sampling, verdict within 10 %%). "
			+ "See docs/runner.md.")
	String experiment;

	@Option(names = "--variants", description = "With --experiment: only these variants (comma-separated; the baseline "
			+ "is always measured, and a switchback variant brings its own off arm), e.g. --variants nio,event-loops-4.")
	String variants;

	private final PrintStream out;

	private final PrintStream err;

	public BenchCommand(PrintStream out, PrintStream err) {
		this.out = out;
		this.err = err;
	}

	/**
	 * The experiment with its variants, resolved once by {@link #settings()} (null
	 * without --experiment).
	 */
	private Experiment chosen;

	/**
	 * Turns the options into validated settings; throws LabException (exit 2) on any bad
	 * input.
	 */
	Settings settings() {
		Path labHome = TargetOptions.labHome();
		Catalog catalog = Catalog.load(labHome);
		Map<String, String> props = target.properties();
		// Many short interleaved repetitions: their pairs sit close in time,
		// and the interval narrows with their number;
		// an experiment restarts and warms a JVM per repetition and variant,
		// so it takes fewer, longer ones.
		Experiment e = experiment == null ? null
				: Through.of(Experiment.named(experiment, labHome).select(variants), target.targetNames());
		int reps = LoadOptions.positive("--repetitions", repetitions, quick ? 2 : e != null ? 5 : 8);
		int dur = load
			.duration(intProp(props, "duration", e != null ? e.defaultDurationSeconds(quick) : quick ? 2 : 3));
		int warm = load.warmup(quick ? 2 : 5);
		int warmMax = load.warmupMax(120);
		// an experiment compares variants by closed-model throughput only:
		// no equal-load phase
		int latencyReps = LoadOptions.nonNegative("--latency-repetitions", latencyRepetitions,
				experiment != null ? 0 : quick ? 1 : 5);
		latencyPlan = parseLatencyPlan();
		int thr = load.threads(intProp(props, "threads", 8));
		double r = load.rate(props.containsKey("rate") ? Double.parseDouble(props.get("rate")) : 0, true);
		// Measured repetitions follow a warm-up: every thread starts at once (a ramp
		// would be part of a short window).
		int rampup = intProp(props, "rampup", 0);
		Settings.RUNNER_KEYS.forEach(props::remove);
		Path plans = Settings.plansDir(labHome);
		List<Target> targets;
		boolean open = false;
		chosen = null;
		if (e != null) {
			chosen = e;
			// the variants' plan properties; -J wins
			e.properties().forEach(props::putIfAbsent);
			LabScript.require("--experiment " + experiment + " (it restarts " + e.service() + " per variant)",
					"./lab bench --experiment " + experiment);
			targets = e.targets(kind -> target.ofKind(catalog, kind, plans));
			open = e.openRate() > 0;
			r = !load.rateGiven() && open ? e.openRate() : r;
		}
		else if (variants != null) {
			throw new LabException("--variants needs --experiment",
					"e.g. ./lab bench --experiment tuning --variants nio");
		}
		else {
			targets = target.resolveTargets(catalog, plans);
		}
		Settings settings = new Settings(reps, dur, warm, warmMax, thr, r, open, latencyReps, rampup, targets, props,
				labHome, target.resultsRoot(labHome), target.metricsHost(), target.metricsPort(), target.remote(),
				quick, experiment,
				// a switchback's JTL holds both arms:
				// JMeter's dashboard of it would mix them (and take minutes)
				dashboard != null ? dashboard : !quick && (e == null || e.toggle() == null), catalog);
		if (e != null && e.toggle() != null && !settings.remoteHosts().isEmpty()) {
			throw new LabException(
					"--experiment " + experiment + " switches " + e.toggle().what() + " during each run "
							+ "and splits the samples by their time stamps, which needs the in-process engine's clock",
					"run it without --remote");
		}
		return settings;
	}

	private LatencyPlan latencyPlan;

	/** The latency plan {@link #settings()} resolved. */
	LatencyPlan latencyPlan() {
		return latencyPlan;
	}

	private LatencyPlan parseLatencyPlan() {
		double[] levels = latencyLevels == null || latencyLevels.isEmpty() ? LatencyPlan.DEFAULT_LEVELS
				: latencyLevels.stream().mapToDouble(Double::doubleValue).toArray();
		for (double l : levels) {
			if (!(l > 0) || Double.isInfinite(l)) {
				throw new LabException("invalid --latency-levels " + latencyLevels + ": each must be > 0",
						"use multiples of the answer rate, e.g. --latency-levels 1,2,3,4");
			}
		}
		double min = minSuccess == null ? LatencyPlan.DEFAULT_MIN_SUCCESS : minSuccess;
		if (!(min >= 0 && min <= 100)) {
			throw new LabException("invalid --min-success " + minSuccess + ": a percentage 0..100",
					"use e.g. --min-success 99");
		}
		OpenLoad.Arrivals arrivals = OpenLoad.Arrivals.UNIFORM;
		if (latencyArrivals != null) {
			arrivals = java.util.Arrays.stream(OpenLoad.Arrivals.values())
				.filter(a -> a.label().equals(latencyArrivals))
				.findFirst()
				.orElseThrow(() -> new LabException("invalid --latency-arrivals " + latencyArrivals,
						"use uniform (the default) or poisson"));
		}
		int connections = LoadOptions.positive("--latency-connections", latencyConnections,
				LatencyPlan.DEFAULT_CONNECTIONS);
		return new LatencyPlan(levels, min, arrivals, connections);
	}

	/**
	 * Writes the inputs the experiment's variants read and are missing (e.g. the
	 * deny-list rule files).
	 */
	private void prepare(Experiment e) throws java.io.IOException, InterruptedException {
		List<Experiment.Input> missing = e.inputs().stream().filter(i -> !Files.isRegularFile(i.file())).toList();
		if (missing.isEmpty()) {
			return;
		}
		LabScript lab = new LabScript(
				LabScript.require("--experiment " + experiment, "./lab bench --experiment " + experiment), null);
		for (Experiment.Input input : missing) {
			List<String> args = input.labArgs();
			out.println("bench: " + input.file() + " is missing; writing it: ./lab " + String.join(" ", args));
			lab.run(Map.of(), args.get(0), args.subList(1, args.size()));
		}
	}

	@Override
	public Integer call() throws Exception {
		Settings s = settings();
		return RunDirectory.run(s, target.start(), out, run -> {
			try (LiveMetrics metrics = new LiveMetrics()) {
				return run(s, run, metrics);
			}
		});
	}

	private int run(Settings s, RunDirectory run, LiveMetrics metrics) throws Exception {
		JMeterHome.init(JMeterHome.defaultLocation());
		int port = metrics.start(s.metricsHost(), s.metricsPort(), err);
		Restarts restarts = null;
		Experiment e = chosen;
		if (e != null) {
			prepare(e);
			restarts = new Restarts(
					new LabScript(LabScript.require("--experiment", "./lab bench --experiment " + s.experiment()),
							run.dir().resolve("lab-script.log")),
					e.service(), Restarts.inFront(e.service(), s.targets()));
		}
		Bench bench = new Bench(s, run.dir(), out, metrics, restarts, e, latencyPlan);
		out.printf("bench: %d target(s) %s, %d reps × %d s, warm-up %d s, %s; about %d s; results %s%s%n",
				s.targets().size(), TargetOptions.joinTargets(s.targets()), s.repetitions(), s.durationSeconds(),
				s.warmupSeconds(), s.describe().get("model"), bench.plannedSeconds(), run.dir(),
				port > 0 ? "; live metrics " + LiveMetrics.url(s.metricsHost(), port) : "");
		RunResult result = bench.run();
		run.complete();
		out.println();
		out.print(BenchReport.table(result.targets()));
		out.print(LatencyReport.table(result.latency()));
		result.comparisons().forEach(c -> out.println("  " + c));
		if (result.cpuChain() != null) {
			out.println("  " + CpuChainReport.line(result.cpuChain()));
		}
		if (result.cpuSplit() != null) {
			out.println("  " + CpuSplitReport.line(result.cpuSplit()));
		}
		result.warnings().forEach(w -> out.println("  warning: " + w));
		out.printf("report: %s (report.html, run.json%s); wall time %d s%n", run.dir().resolve("report.md"),
				s.dashboards() ? ", jmeter-dashboard/" : "", run.elapsedSeconds());
		if (!result.valid()) {
			err.println("INVALID: this run cannot support an answer — " + String.join("; ", result.invalidBecause()));
			return Validity.EXIT_INVALID;
		}
		out.println("answer: " + result.answer());
		return 0;
	}

	private static int intProp(Map<String, String> props, String key, int dflt) {
		return props.containsKey(key) ? Integer.parseInt(props.get(key)) : dflt;
	}

}
