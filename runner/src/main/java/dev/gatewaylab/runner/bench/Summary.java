package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.process.ProcSampler;
import dev.gatewaylab.runner.result.CpuCost;
import dev.gatewaylab.runner.result.Latency;
import dev.gatewaylab.runner.result.TargetResult;
import dev.gatewaylab.runner.run.Target;
import dev.gatewaylab.runner.stats.Aggregate;
import dev.gatewaylab.runner.stats.Stats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns what was measured for a target into its run.json record: TPS with CI, latency,
 * CPU per request.
 */
final class Summary {

	private Summary() {
	}

	static TargetResult of(TargetRun run) {
		Target t = run.target();
		Aggregate all = TargetRun.merged(run.samples());
		double[] tpsReps = run.tpsReps();
		return new TargetResult(t.name(), t.plan(), t.url().toString(), all.samples(), Stats.mean(tpsReps),
				Stats.ci95(tpsReps), all.avgMs(), all.minMs(), all.maxMs(), all.quotedMs(50), all.quotedMs(90),
				all.quotedMs(99), all.successRate(), all.errors(), tpsReps, run.p99Reps(), resources(run),
				Stats.median(tpsReps), cpuPerRequest(run.usages(), run.samplesPerRep()), run.warmup(),
				latency(run.openReps(), run.openRate()), run.meanTimeline());
	}

	/**
	 * CPU µs per request of every process, per repetition (its CPU seconds over the
	 * requests of that repetition), then mean and CI95 over the repetitions. The
	 * machine's total is not a process and is left out.
	 */
	static Map<String, CpuCost> cpuPerRequest(List<Map<String, ProcSampler.Usage>> usages, long[] samples) {
		Map<String, List<Double>> perProcess = new LinkedHashMap<>();
		for (int rep = 0; rep < usages.size() && rep < samples.length; rep++) {
			for (Map.Entry<String, ProcSampler.Usage> e : usages.get(rep).entrySet()) {
				double us = e.getValue().microsPerRequest(samples[rep]);
				if (!e.getKey().equals("machine") && !Double.isNaN(us)) {
					perProcess.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(us);
				}
			}
		}
		Map<String, CpuCost> out = new LinkedHashMap<>();
		perProcess.forEach((proc, list) -> {
			double[] reps = list.stream().mapToDouble(Double::doubleValue).toArray();
			out.put(proc, new CpuCost(Stats.mean(reps), Stats.ci95(reps), reps));
		});
		return out;
	}

	static Latency latency(List<Aggregate> openReps, double rate) {
		if (openReps.isEmpty()) {
			return null;
		}
		Aggregate all = TargetRun.merged(openReps);
		double window = openReps.stream().mapToDouble(Aggregate::windowSeconds).sum();
		return new Latency(rate, window > 0 ? all.samples() / window : 0, all.samples(), all.successRate(), all.avgMs(),
				all.quotedMs(50), all.quotedMs(90), all.quotedMs(99), all.quotedMs(99.9), all.maxMs());
	}

	/**
	 * Mean CPU % and peak RSS per process over the measured repetitions; a note where
	 * nothing could be read.
	 */
	static Map<String, TargetResult.Resource> resources(TargetRun run) {
		Target t = run.target();
		Map<String, TargetResult.Resource> out = new LinkedHashMap<>();
		if (!t.local()) {
			out.put(t.service(), new TargetResult.Resource(null, null, "n/a (remote)"));
		}
		Map<String, List<ProcSampler.Usage>> byProc = new LinkedHashMap<>();
		run.usages().forEach(m -> m.forEach((k, v) -> byProc.computeIfAbsent(k, x -> new ArrayList<>()).add(v)));
		byProc.forEach((proc, us) -> {
			double[] cpu = us.stream()
				.filter(ProcSampler.Usage::known)
				.mapToDouble(ProcSampler.Usage::cpuPercent)
				.toArray();
			double rss = us.stream().mapToDouble(ProcSampler.Usage::rssMiB).max().orElse(-1);
			out.put(proc,
					new TargetResult.Resource(cpu.length == 0 ? null : Stats.mean(cpu), rss < 0 ? null : rss, null));
		});
		if (t.local() && !out.containsKey(t.service()) && !"nginx".equals(t.service())) {
			out.put(t.service(), new TargetResult.Resource(null, null,
					"n/a (no .lab/" + t.service() + ".pid — not started by ./lab up)"));
		}
		return out;
	}

}
