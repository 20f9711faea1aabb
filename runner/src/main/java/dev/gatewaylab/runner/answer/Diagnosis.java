package dev.gatewaylab.runner.answer;

import dev.gatewaylab.runner.process.MachineSpeed;
import dev.gatewaylab.runner.result.RepResult;
import dev.gatewaylab.runner.result.TargetResult;
import dev.gatewaylab.runner.result.WarmupResult;
import dev.gatewaylab.runner.stats.Stats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The warning rules: pure functions of what was measured, each returning its warning or
 * nothing. A warning says what the reader must not conclude from the numbers, and what to
 * change.
 */
public final class Diagnosis {

	/** What the rules need besides the target's own result. */
	public record Context(int cores, boolean allLocal, int warmupSeconds) {

		/**
		 * The runner's fair CPU share in % of one core: half the machine when it shares
		 * it with the targets.
		 */
		double runnerShare() {
			return allLocal ? cores * 100.0 / 2 : cores * 100.0;
		}
	}

	private Diagnosis() {
	}

	public static List<String> warnings(TargetResult r, String service, WarmupResult warm, Context c) {
		List<String> out = new ArrayList<>();
		generatorSaturation(r, c).ifPresent(out::add);
		machineBound(r, c).ifPresent(out::add);
		idleTarget(r, service).ifPresent(out::add);
		notSteady(r.name(), warm, c).ifPresent(out::add);
		risingTrend(r.name(), r.tpsReps()).ifPresent(out::add);
		lowSuccess(r).ifPresent(out::add);
		return out;
	}

	static Optional<String> generatorSaturation(TargetResult r, Context c) {
		Double cpu = cpu(r, "runner");
		if (cpu == null || cpu < 0.8 * c.runnerShare()) {
			return Optional.empty();
		}
		return Optional.of(String.format(Locale.ROOT,
				"generator saturation while measuring %s: the runner used "
						+ "%.0f %% CPU, ≥ 80 %% of its share (%.0f %%) — the load generator may have set this TPS",
				r.name(), cpu, c.runnerShare()));
	}

	static Optional<String> machineBound(TargetResult r, Context c) {
		Double cpu = cpu(r, "machine");
		if (cpu == null || cpu < 90) {
			return Optional.empty();
		}
		return Optional.of(String.format(Locale.ROOT, "machine CPU-bound while measuring %s (%.0f %% of %d cores "
				+ "busy): generator and targets compete for cores; compare ratios between targets, not absolute TPS",
				r.name(), cpu, c.cores()));
	}

	static Optional<String> idleTarget(TargetResult r, String service) {
		Double cpu = cpu(r, service);
		if (cpu == null || cpu >= 10) {
			return Optional.empty();
		}
		return Optional.of(String.format(Locale.ROOT,
				"target %s looked idle (%s at %.0f %% CPU): the client, not " + "the target, limited throughput",
				r.name(), service, cpu));
	}

	static Optional<String> notSteady(String target, WarmupResult warm, Context c) {
		if (warm == null || warm.steady()) {
			return Optional.empty();
		}
		return Optional.of(String.format(Locale.ROOT,
				"%s: still warming up when measuring began — %s after %.0f s "
						+ "in %d windows of %d s; raise --warmup-max or check what else runs on the machine",
				target, warm.reason(), warm.seconds(), warm.windows(), c.warmupSeconds()));
	}

	static Optional<String> risingTrend(String target, double[] tpsReps) {
		if (!Stats.risingTrend(tpsReps)) {
			return Optional.empty();
		}
		return Optional.of(String.format(Locale.ROOT, "%s: TPS rose from each repetition to the next (%s) — the "
				+ "target or the generator was still warming up; the mean understates steady state — raise --warmup "
				+ "or --repetitions", target,
				Arrays.stream(tpsReps)
					.mapToObj(v -> String.format(Locale.ROOT, "%.0f", v))
					.collect(Collectors.joining(" → "))));
	}

	/**
	 * The machine itself got faster or slower during the run (a shared VM's host): every
	 * figure moves with it, and repetitions far apart in time are not comparable — the
	 * calibration before each repetition says by how much.
	 */
	public static Optional<String> machineSpeedChanged(List<RepResult> reps) {
		double[] probes = reps.stream()
			.filter(r -> r.calibrationMs() != null)
			.mapToDouble(RepResult::calibrationMs)
			.toArray();
		double spread = MachineSpeed.spreadPercent(probes);
		if (Double.isNaN(spread) || spread <= MachineSpeed.TOLERANCE_PERCENT) {
			return Optional.empty();
		}
		return Optional.of(String.format(Locale.ROOT, "the machine's speed changed by %.0f %% during the run (a fixed "
				+ "calibration loop took %.1f–%.1f ms of CPU before the repetitions, see run.json calibration_ms): "
				+ "every process's CPU per request and every TPS moved with it; ratios of neighbouring repetitions "
				+ "are the least affected — rerun when the host is quieter", spread,
				Arrays.stream(probes).min().orElse(Double.NaN), Arrays.stream(probes).max().orElse(Double.NaN)));
	}

	static Optional<String> lowSuccess(TargetResult r) {
		if (!(r.successRate() < 99)) {
			return Optional.empty();
		}
		return Optional.of(String.format(Locale.ROOT,
				"%s: success rate %.2f %% — TPS includes failed requests; see " + "the errors section", r.name(),
				r.successRate()));
	}

	private static Double cpu(TargetResult r, String process) {
		TargetResult.Resource res = r.resources().get(process);
		return res == null ? null : res.cpuPercent();
	}

}
