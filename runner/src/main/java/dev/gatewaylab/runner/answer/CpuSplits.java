package dev.gatewaylab.runner.answer;

import dev.gatewaylab.runner.result.CpuCost;
import dev.gatewaylab.runner.result.CpuSplit;
import dev.gatewaylab.runner.result.TargetResult;
import dev.gatewaylab.runner.stats.Stats;
import java.util.Map;

/**
 * The gateway's CPU per request split into the floor (the service {@code floor}: Reactor
 * Netty alone) and what is on top of it, when a run measured a target of each.
 */
public final class CpuSplits {

	static final String GATEWAY = "gateway";

	static final String FLOOR = "floor";

	private CpuSplits() {
	}

	/**
	 * The split, or null when the run has no gateway or no floor target, or their CPU per
	 * request was not read in the same repetitions (a process without a pid file, a
	 * remote target).
	 * @param results the targets measured, in the run's order
	 * @param services target name → the service it measures
	 */
	public static CpuSplit of(Iterable<TargetResult> results, Map<String, String> services) {
		TargetResult gateway = serving(results, services, GATEWAY);
		TargetResult floor = serving(results, services, FLOOR);
		if (gateway == null || floor == null) {
			return null;
		}
		double[] g = reps(gateway, GATEWAY);
		double[] f = reps(floor, FLOOR);
		if (g == null || f == null || g.length != f.length || g.length != gateway.tpsReps().length
				|| f.length != floor.tpsReps().length || g.length == 0) {
			return null;
		}
		double[] onTop = new double[g.length];
		double[] times = new double[g.length];
		for (int i = 0; i < g.length; i++) {
			onTop[i] = g[i] - f[i];
			times[i] = f[i] == 0 ? Double.NaN : g[i] / f[i];
		}
		return new CpuSplit(gateway.name(), floor.name(), cost(g), cost(f), cost(onTop), cost(times));
	}

	static TargetResult serving(Iterable<TargetResult> results, Map<String, String> services, String service) {
		for (TargetResult r : results) {
			if (service.equals(services.get(r.name()))) {
				return r;
			}
		}
		return null;
	}

	/** The target's own process's CPU µs per request, per repetition. */
	static double[] reps(TargetResult t, String process) {
		CpuCost c = t.cpuUsPerRequest() == null ? null : t.cpuUsPerRequest().get(process);
		return c == null ? null : c.reps();
	}

	private static CpuCost cost(double[] reps) {
		return new CpuCost(Stats.mean(reps), Stats.ci95(reps), reps);
	}

}
