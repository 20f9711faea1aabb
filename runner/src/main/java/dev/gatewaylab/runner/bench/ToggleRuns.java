package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.process.MachineSpeed;
import dev.gatewaylab.runner.result.RepResult;
import dev.gatewaylab.runner.run.Load;
import dev.gatewaylab.runner.run.Progress;
import dev.gatewaylab.runner.run.Settings;
import dev.gatewaylab.runner.run.Target;
import dev.gatewaylab.runner.stats.Aggregate;
import dev.gatewaylab.runner.warmup.Warmup;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
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

	private final Map<String, TargetRun> runs;

	private final List<RepResult> reps;

	private final Path dir;

	private final Function<Target, Map<String, Long>> pids;

	ToggleRuns(Settings s, Experiment experiment, Restarts restarts, Map<String, TargetRun> runs, List<RepResult> reps,
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
	 * A planning figure: per pair and repetition a restart, the warm-up windows and the
	 * switchback run.
	 */
	static long plannedSeconds(Settings s, long windows) {
		long runs = (long) s.repetitions() * s.targets().size() / 2;
		return runs * (windows * (s.warmupSeconds() + 1) + 30 + s.durationSeconds()
				+ (long) Math.ceil(2 * Switchback.segmentSeconds(s.durationSeconds())) + 3);
	}

	void run(Load load, Warmup warmup, Progress progress) throws IOException, InterruptedException {
		Switchback switchback = new Switchback(experiment.toggle());
		List<TargetRun[]> pairs = new ArrayList<>();
		for (TargetRun r : runs.values()) {
			TargetRun off = runs.get(experiment.offName(r.target.name()));
			if (off != null) {
				pairs.add(new TargetRun[] { r, off });
			}
		}
		for (int rep = 1; rep <= s.repetitions(); rep++) {
			List<TargetRun[]> order = new ArrayList<>(pairs);
			if (rep % 2 == 0) {
				Collections.reverse(order);
			}
			for (TargetRun[] pair : order) {
				TargetRun on = pair[0];
				TargetRun off = pair[1];
				progress.phase("variant " + on.target.name() + " (restart)", 30);
				restarts.switchTo(on.target, rep);
				if (s.warmupSeconds() > 0) {
					on.warmup = warmup.run(on.target); // a restarted service is a cold
														// JVM
					off.warmup = on.warmup;
				}
				progress.phase("switchback " + on.target.name() + " / " + off.target.name() + " rep " + rep + "/"
						+ s.repetitions(), s.durationSeconds());
				Path jtl = dir.resolve("raw").resolve(on.target.name() + "-rep" + rep + ".jtl");
				double calibration = MachineSpeed.probeMillis();
				Switchback.Result result = switchback.run(load, on.target, s.durationSeconds(), s.threads(), jtl,
						pids.apply(on.target));
				record(on, rep, result.on(), jtl, calibration);
				record(off, rep, result.off(), jtl, calibration);
			}
		}
	}

	private void record(TargetRun r, int rep, Switchback.Arm arm, Path jtl, double calibration) {
		Aggregate a = arm.samples();
		r.reps.add(a);
		r.usages.add(arm.usage());
		r.engineSamples.add(Map.of());
		r.timelines.add(arm.timeline());
		reps.add(new RepResult(r.target.name(), rep, a.samples(), a.failures(), a.tps(), a.avgMs(), a.percentileMs(99),
				a.windowSeconds(), dir.relativize(jtl).toString(), calibration, arm.segments()));
	}

}
