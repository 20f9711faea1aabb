package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.process.ProcSampler;
import dev.gatewaylab.runner.result.WarmupResult;
import dev.gatewaylab.runner.run.Target;
import dev.gatewaylab.runner.stats.Aggregate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Everything measured for one target during a run: its warm-up, and per closed-model
 * repetition the samples and the processes' usage; the open-model (equal load)
 * repetitions and their rate.
 */
final class TargetRun {

	final Target target;

	final List<Aggregate> reps = new ArrayList<>();

	final List<double[]> timelines = new ArrayList<>();

	final List<Map<String, ProcSampler.Usage>> usages = new ArrayList<>();

	final List<Aggregate> openReps = new ArrayList<>();

	/**
	 * Per measured repetition: samples per remote engine (empty with the in-process
	 * engine).
	 */
	final List<Map<String, Long>> engineSamples = new ArrayList<>();

	double openRate;

	WarmupResult warmup;

	TargetRun(Target target) {
		this.target = target;
	}

	double[] tpsReps() {
		return reps.stream().mapToDouble(Aggregate::tps).toArray();
	}

	double[] p99Reps() {
		return reps.stream().mapToDouble(a -> a.percentileMs(99)).toArray();
	}

	long[] samplesPerRep() {
		return reps.stream().mapToLong(Aggregate::samples).toArray();
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
