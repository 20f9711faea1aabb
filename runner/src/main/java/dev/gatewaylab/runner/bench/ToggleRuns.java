package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.experiment.Experiment;
import dev.gatewaylab.runner.experiment.Restarts;
import dev.gatewaylab.runner.experiment.Switchback;
import dev.gatewaylab.runner.experiment.Toggle;
import dev.gatewaylab.runner.process.MachineSpeed;
import dev.gatewaylab.runner.result.RepResult;
import dev.gatewaylab.runner.result.WarmupResult;
import dev.gatewaylab.runner.run.Load;
import dev.gatewaylab.runner.run.Progress;
import dev.gatewaylab.runner.run.Settings;
import dev.gatewaylab.runner.run.Target;
import dev.gatewaylab.runner.stats.Aggregate;
import dev.gatewaylab.runner.warmup.Warmup;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The measuring part of an experiment with a run-time {@link Toggle}: per repetition and
 * variant, in alternating order, the service restarted in the variant (a cold JVM of its
 * own), warmed until steady, then one {@link Switchback} run that measures the variant
 * and its off arm in that JVM.
 */
final class ToggleRuns {

	private final Settings s;

	private final Experiment experiment;

	private final Restarts restarts;

	private final Collection<TargetRun> runs;

	private final List<RepResult> reps;

	private final Path dir;

	private final Function<Target, Map<String, Long>> pids;

	ToggleRuns(Settings s, Experiment experiment, Restarts restarts, Collection<TargetRun> runs, List<RepResult> reps,
			Path dir, Function<Target, Map<String, Long>> pids) {
		this.s = s;
		this.experiment = experiment;
		this.restarts = restarts;
		this.runs = runs;
		this.reps = reps;
		this.dir = dir;
		this.pids = pids;
	}

	/**
	 * One arm of one switchback run: the target it belongs to, the repetition and the
	 * warm-up of the JVM it ran in (null with --warmup 0).
	 */
	record Measured(String target, TargetRun.Rep rep, WarmupResult warmup) {
	}

	/** Runs every repetition; returns what each arm measured, in order. */
	List<Measured> run(Load load, Warmup warmup, Progress progress, UnitCountdown countdown)
			throws IOException, InterruptedException {
		Switchback switchback = new Switchback(experiment.toggle());
		List<Target[]> pairs = new ArrayList<>();
		for (TargetRun r : runs) {
			String offName = experiment.offName(r.target().name());
			runs.stream()
				.filter(o -> o.target().name().equals(offName))
				.findFirst()
				.ifPresent(off -> pairs.add(new Target[] { r.target(), off.target() }));
		}
		List<Measured> out = new ArrayList<>();
		for (int rep = 1; rep <= s.repetitions(); rep++) {
			List<Target[]> order = new ArrayList<>(pairs);
			if (rep % 2 == 0) {
				Collections.reverse(order);
			}
			for (Target[] pair : order) {
				Target on = pair[0];
				Target off = pair[1];
				countdown.unitStarts();
				progress.phase("variant " + on.name() + " (restart)", BenchPlan.RESTART_SECONDS);
				restarts.switchTo(on, rep);
				// a restarted service is a cold JVM
				WarmupResult warm = s.warmupSeconds() > 0 ? warmup.run(on) : null;
				countdown.measurementStarts();
				progress.phase("switchback " + on.name() + " / " + off.name() + " rep " + rep + "/" + s.repetitions(),
						s.durationSeconds());
				Path jtl = dir.resolve("raw").resolve(on.name() + "-rep" + rep + ".jtl");
				double calibration = MachineSpeed.probeMillis();
				Switchback.Result result = switchback.run(load, on, s.durationSeconds(), s.threads(), jtl,
						pids.apply(on));
				out.add(new Measured(on.name(), record(on, rep, result.on(), jtl, calibration), warm));
				out.add(new Measured(off.name(), record(off, rep, result.off(), jtl, calibration), warm));
				countdown.unitEnds();
			}
		}
		return out;
	}

	private TargetRun.Rep record(Target t, int rep, Switchback.Arm arm, Path jtl, double calibration) {
		Aggregate a = arm.samples();
		reps.add(new RepResult(t.name(), rep, a.samples(), a.failures(), a.tps(), a.avgMs(), a.quotedMs(99),
				a.windowSeconds(), dir.relativize(jtl).toString(), calibration, arm.segments()));
		return new TargetRun.Rep(a, arm.timeline(), arm.usage(), Map.of());
	}

}
