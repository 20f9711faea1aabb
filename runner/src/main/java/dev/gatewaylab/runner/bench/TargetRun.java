package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.process.ProcSampler;
import dev.gatewaylab.runner.result.WarmupResult;
import dev.gatewaylab.runner.run.Target;
import dev.gatewaylab.runner.stats.Aggregate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything measured for one target during a run, immutable: its warm-up, its
 * closed-model repetitions and its open-model (equal load) repetitions at one rate. The
 * pipeline ({@link Bench}) builds a new one for every step that measured something.
 */
record TargetRun(Target target, WarmupResult warmup, List<Rep> reps, List<Aggregate> openReps, double openRate) {

	TargetRun {
		reps = List.copyOf(reps);
		openReps = List.copyOf(openReps);
	}

	/** Nothing measured yet. */
	static TargetRun of(Target target) {
		return new TargetRun(target, null, List.of(), List.of(), 0);
	}

	/**
	 * One measured closed-model repetition: its samples, mean response time per second,
	 * the processes' usage, and its samples per remote engine (empty with the in-process
	 * engine).
	 */
	record Rep(Aggregate samples, double[] timeline, Map<String, ProcSampler.Usage> usage,
			Map<String, Long> engineSamples) {
	}

	TargetRun withWarmup(WarmupResult w) {
		return new TargetRun(target, w, reps, openReps, openRate);
	}

	TargetRun withRep(Rep rep) {
		List<Rep> all = new ArrayList<>(reps);
		all.add(rep);
		return new TargetRun(target, warmup, all, openReps, openRate);
	}

	TargetRun withOpen(List<Aggregate> open, double rate) {
		return new TargetRun(target, warmup, reps, open, rate);
	}

	List<Aggregate> samples() {
		return reps.stream().map(Rep::samples).toList();
	}

	List<Map<String, ProcSampler.Usage>> usages() {
		return reps.stream().map(Rep::usage).toList();
	}

	double[] tpsReps() {
		return reps.stream().mapToDouble(r -> r.samples().tps()).toArray();
	}

	/**
	 * Each repetition's p99 in whole ms, from the repetitions that hold enough samples
	 * for one ({@link dev.gatewaylab.runner.stats.Percentiles}).
	 */
	double[] p99Reps() {
		return reps.stream()
			.map(r -> r.samples().quotedMs(99))
			.filter(Objects::nonNull)
			.mapToDouble(Long::doubleValue)
			.toArray();
	}

	long[] samplesPerRep() {
		return reps.stream().mapToLong(r -> r.samples().samples()).toArray();
	}

	static Aggregate merged(List<Aggregate> list) {
		Aggregate all = new Aggregate();
		list.forEach(all::addAll);
		return all;
	}

	/**
	 * Per-second mean response time averaged over the repetitions (NaN where no
	 * repetition had samples).
	 */
	double[] meanTimeline() {
		List<double[]> timelines = reps.stream().map(Rep::timeline).toList();
		int len = timelines.stream().mapToInt(a -> a.length).max().orElse(0);
		double[] out = new double[len];
		for (int i = 0; i < len; i++) {
			double sum = 0;
			int n = 0;
			for (double[] l : timelines) {
				if (i < l.length && !Double.isNaN(l[i])) {
					sum += l[i];
					n++;
				}
			}
			out[i] = n == 0 ? Double.NaN : sum / n;
		}
		return out;
	}

}
