package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.answer.Answer;
import dev.gatewaylab.runner.answer.CpuSplits;
import dev.gatewaylab.runner.answer.Diagnosis;
import dev.gatewaylab.runner.answer.Validity;
import dev.gatewaylab.runner.curve.LatencyCurve;
import dev.gatewaylab.runner.curve.LatencyLogs;
import dev.gatewaylab.runner.curve.LatencyPhase;
import dev.gatewaylab.runner.curve.LatencyPlan;
import dev.gatewaylab.runner.experiment.Experiment;
import dev.gatewaylab.runner.experiment.Restarts;
import dev.gatewaylab.runner.jmeter.Dashboards;
import dev.gatewaylab.runner.metrics.LiveMetrics;
import dev.gatewaylab.runner.process.MachineSpeed;
import dev.gatewaylab.runner.process.ProcSampler;
import dev.gatewaylab.runner.report.BenchReport;
import dev.gatewaylab.runner.result.EngineResult;
import dev.gatewaylab.runner.result.LatencyResult;
import dev.gatewaylab.runner.result.RepResult;
import dev.gatewaylab.runner.result.RunResult;
import dev.gatewaylab.runner.result.TargetResult;
import dev.gatewaylab.runner.result.WarmupResult;
import dev.gatewaylab.runner.run.Catalog;
import dev.gatewaylab.runner.run.ClockOffsets;
import dev.gatewaylab.runner.run.Engines;
import dev.gatewaylab.runner.run.Load;
import dev.gatewaylab.runner.run.Progress;
import dev.gatewaylab.runner.run.Settings;
import dev.gatewaylab.runner.run.Target;
import dev.gatewaylab.runner.warmup.SteadyState;
import dev.gatewaylab.runner.warmup.Warmup;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * One bench run as a pipeline: warm up → measure (interleaved repetitions) → summarise →
 * diagnose → write. State is one {@link TargetRun} per target.
 */
final class Bench {

	private final Settings s;

	private final Path dir;

	private final PrintStream out;

	private final LiveMetrics metrics;

	private final Restarts restarts;

	private final Experiment experiment;

	private final Map<String, TargetRun> runs = new LinkedHashMap<>();

	private final List<RepResult> reps = new ArrayList<>();

	private final List<String> engineEvents = new ArrayList<>();

	private final List<String> lostEngines = new ArrayList<>();

	private ClockOffsets clocks;

	private final LatencyPlan latencyPlan;

	private LatencyResult latency;

	Bench(Settings settings, Path dir, PrintStream out, LiveMetrics metrics, Restarts restarts, Experiment experiment,
			LatencyPlan latencyPlan) {
		this.latencyPlan = latencyPlan;
		this.s = settings;
		this.dir = dir;
		this.out = out;
		this.metrics = metrics;
		this.restarts = restarts;
		this.experiment = experiment;
		settings.targets().forEach(t -> runs.put(t.name(), TargetRun.of(t)));
	}

	/**
	 * A planning figure for the progress line ({@link BenchPlan}); the run plans again as
	 * it goes.
	 */
	long plannedSeconds() {
		return plan().total();
	}

	private BenchPlan plan() {
		return new BenchPlan(s, latencyPlan, restarts != null, experiment != null && experiment.toggle() != null);
	}

	/**
	 * Runs the pipeline and writes the reports; returns what was written (warnings
	 * included).
	 */
	RunResult run() throws IOException, InterruptedException {
		Instant started = Instant.now();
		BenchPlan plan = plan();
		try (Progress progress = new Progress(out, plan.total())) {
			Load load = new Load(s, metrics, progress);
			Warmup warmup = new Warmup(s, load);
			if (restarts == null && s.warmupSeconds() > 0) {
				// a warm-up past its planned windows holds the line at what follows it
				progress.replan(plan.total(), plan.measureSeconds() + plan.openSeconds());
				warmup.runInterleaved(s.targets()).forEach((t, w) -> update(t.name(), r -> r.withWarmup(w)));
				// warm until steady: it may have taken more windows than planned
				progress.replan(plan.measureSeconds() + plan.openSeconds(), plan.openSeconds());
			}
			UnitCountdown countdown = plan.countdown(progress);
			if (experiment != null && experiment.toggle() != null) {
				for (ToggleRuns.Measured m : new ToggleRuns(s, experiment, restarts, runs.values(), reps, dir,
						t -> Pids.of(s, t))
					.run(load, warmup, progress, countdown)) {
					update(m.target(), r -> (m.warmup() != null ? r.withWarmup(m.warmup()) : r).withRep(m.rep()));
				}
			}
			for (int rep = 1; rep <= s.repetitions() && (experiment == null || experiment.toggle() == null); rep++) {
				for (TargetRun r : inOrder(rep)) {
					if (restarts != null) {
						countdown.unitStarts();
						progress.phase("variant " + r.target().name() + " (restart if needed)",
								BenchPlan.RESTART_SECONDS);
						restarts.switchTo(r.target(), rep);
						if (s.warmupSeconds() > 0) {
							// a restarted service is a cold JVM
							WarmupResult w = warmup.run(warmupTarget(r.target()));
							update(r.target().name(), x -> x.withWarmup(w));
						}
						countdown.measurementStarts();
					}
					progress.phase("measure " + r.target().name() + " rep " + rep + "/" + s.repetitions(),
							s.durationSeconds());
					TargetRun.Rep measured = measure(load, r.target(), rep);
					update(r.target().name(), x -> x.withRep(measured));
					if (restarts != null) {
						countdown.unitEnds();
					}
				}
			}
			if (plan.hasOpenPhases()) {
				double rate = EqualLoad.rate(s, runs.values());
				LatencyPhase phase = new LatencyPhase(s, latencyPlan, latencyPlan.realGenerator());
				List<Target> targets = inOrder(1).stream().map(TargetRun::target).toList();
				// the answer rate is known: the latency windows' real lengths
				long latencySeconds = Math.round(phase.seconds(targets, rate));
				progress.replan(plan.equalLoadSeconds() + latencySeconds, latencySeconds);
				if (!s.quick()) {
					equalLoad(load, progress, rate);
				}
				LatencyPhase.Measured m = phase.run(targets, rate, progress);
				latency = LatencyCurve.of(m, latencyPlan.generator());
				engineEvents.addAll(LatencyLogs.write(dir.resolve("raw"), m, latencyPlan.generator()));
				engineEvents.addAll(LatencyCurve.problems(m));
			}
			engineEvents.addAll(load.engineEvents());
			lostEngines.addAll(load.lostEngines());
			clocks = load.clockOffsets();
		}
		finally {
			if (restarts != null) {
				restarts.restoreDefault();
			}
		}
		List<TargetResult> results = runs.values().stream().map(Summary::of).toList();
		RunResult run = diagnose(started, results);
		return write(run);
	}

	/**
	 * The targets in alternating order — A B C in odd repetitions, C B A in even ones —
	 * so that a drift over the run (an upstream still warming, a neighbour's load fading)
	 * does not always favour the target measured last.
	 */
	List<TargetRun> inOrder(int rep) {
		List<TargetRun> order = new ArrayList<>(runs.values());
		if (rep % 2 == 0) {
			Collections.reverse(order);
		}
		return order;
	}

	/** Replaces a target's record by the one {@code step} builds from it. */
	private void update(String target, UnaryOperator<TargetRun> step) {
		runs.put(target, step.apply(runs.get(target)));
	}

	private TargetRun.Rep measure(Load load, Target t, int rep) throws IOException, InterruptedException {
		Path jtl = dir.resolve("raw").resolve(t.name() + "-rep" + rep + ".jtl");
		double calibration = MachineSpeed.probeMillis();
		ProcSampler sampler = ProcSampler.supported() ? ProcSampler.start(Pids.of(s, t)) : null;
		Map<String, ProcSampler.Usage> usage = Map.of();
		try {
			if (s.openModel()) {
				load.runOpen(t, s.rate(), s.durationSeconds(), jtl);
			}
			else {
				load.run(t, s.durationSeconds(), s.threads(), jtl, x -> {
				});
			}
		}
		finally {
			if (sampler != null) {
				usage = sampler.usage();
				sampler.close();
			}
		}
		Load.Measured m = Load.readOrEmpty(t, jtl, "rep " + rep, s.remoteHosts());
		reps.add(new RepResult(t.name(), rep, m.aggregate().samples(), m.aggregate().failures(), m.aggregate().tps(),
				m.aggregate().avgMs(), m.aggregate().quotedMs(99), m.aggregate().windowSeconds(),
				dir.relativize(jtl).toString(), calibration, null));
		return new TargetRun.Rep(m.aggregate(), m.timeline(), usage, m.engines());
	}

	/**
	 * JMeter's figures at equal load (whole ms, kept beside the latency generator's):
	 * {@link EqualLoad}.
	 */
	private void equalLoad(Load load, Progress progress, double rate) throws IOException, InterruptedException {
		new EqualLoad(s, dir).run(load, progress, rate, inOrder(1))
			.forEach((name, open) -> update(name, x -> x.withOpen(open, rate)));
	}

	/**
	 * What warms a target up: itself, except in an open-model experiment, whose plan may
	 * be slow by design (the slow-upstream plan gives 8 closed-model threads ≈ 16 req/s,
	 * too few to warm a JIT or to agree on TPS): there the kind's own plan on the same
	 * URL warms the same JVMs.
	 */
	private Target warmupTarget(Target t) {
		Catalog.TargetKind kind = s.catalog().kindOf(t);
		return !s.openModel() || kind == null ? t : t.variant(t.name(), kind.plan(), t.restartEnv());
	}

	private RunResult diagnose(Instant started, List<TargetResult> results) {
		boolean allLocal = s.targets().stream().allMatch(Target::local) && s.remoteHosts().isEmpty();
		Diagnosis.Context c = new Diagnosis.Context(Runtime.getRuntime().availableProcessors(), allLocal,
				s.warmupSeconds());
		List<String> warnings = new ArrayList<>();
		if (s.quick() && s.warmupSeconds() > 0) {
			warnings.add("--quick: warm-up was one " + s.warmupSeconds() + " s window per target, not judged — the "
					+ "figures may include JIT warm-up; use ./lab bench for numbers to keep");
		}
		Map<String, String> services = new LinkedHashMap<>();
		for (TargetResult r : results) {
			TargetRun run = runs.get(r.name());
			services.put(r.name(), run.target().service());
			warnings.addAll(Diagnosis.warnings(r, run.target().service(), s.quick() ? null : run.warmup(), c));
		}
		Engines perEngine = new Engines(s.remoteHosts());
		for (TargetRun r : runs.values()) {
			r.reps().forEach(rep -> perEngine.samples(r.target().name(), rep.engineSamples()));
			r.usages().forEach(perEngine::usage);
		}
		List<EngineResult> engines = perEngine.results(lostEngines, clocks);
		warnings.addAll(Engines.warnings(engines, lostEngines));
		if (clocks != null) {
			warnings.addAll(clocks.warnings());
		}
		warnings.addAll(engineEvents);
		Diagnosis.machineSpeedChanged(reps).ifPresent(warnings::add);
		var chain = experiment == null ? StockChain.of(s, runs.values(), results, services) : null;
		Answer.Verdict v = Answer.of(s, experiment, results, services, latency, chain);
		List<String> invalid = Validity.reasons(results, reps, latency, latencyPlan.minSuccess(), experiment != null);
		Map<String, Object> settings = new LinkedHashMap<>(s.describe());
		settings.put("latency_levels", latencyPlan.levels());
		settings.put("min_success_percent", latencyPlan.minSuccess());
		return new RunResult(invalid.isEmpty() ? RunResult.VALID : RunResult.INVALID, invalid,
				invalid.isEmpty() ? v.answer() : null, settings,
				Environment.probe(started, s.labHome(), s.remoteHosts(), s.catalog().services().keySet()), results,
				v.ratios(), reps, v.comparisons(), warnings, Notes.of(s, results, experiment), engines, latency,
				experiment == null ? CpuSplits.of(results, services) : null, chain);
	}

	/**
	 * JMeter dashboards (best effort: a failure becomes a warning), then run.json,
	 * report.md, report.html.
	 */
	private RunResult write(RunResult run) throws IOException {
		List<String> warnings = new ArrayList<>(run.warnings());
		if (s.dashboards()) {
			Map<String, List<Path>> jtls = new LinkedHashMap<>();
			s.targets().forEach(t -> jtls.put(t.name(), new ArrayList<>()));
			reps.forEach(r -> jtls.get(r.target()).add(dir.resolve(r.jtl())));
			warnings.addAll(Dashboards.generate(dir, jtls));
		}
		RunResult fin = run.withWarningsAndNotes(warnings, run.notes());
		BenchReport.write(dir, fin);
		return fin;
	}

}
