package dev.gatewaylab.runner.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.gatewaylab.runner.process.ProcSampler;
import dev.gatewaylab.runner.report.BenchReport;
import dev.gatewaylab.runner.result.CpuCost;
import dev.gatewaylab.runner.result.TargetResult;
import dev.gatewaylab.runner.run.Target;
import dev.gatewaylab.runner.stats.Aggregate;
import dev.gatewaylab.runner.stats.JtlSample;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SummaryTests {

	private static ProcSampler.Usage cpu(double seconds) {
		return new ProcSampler.Usage(100, seconds, 200);
	}

	@Test
	void cpuPerRequestIsTakenPerRepetitionThenAveragedWithItsInterval() {
		// Three reps: gateway 7.0 / 7.2 / 6.8 CPU-s
		// over 30,000 / 30,000 / 29,000 requests.
		List<Map<String, ProcSampler.Usage>> usages = List.of(
				Map.of("gateway", cpu(7.0), "machine", new ProcSampler.Usage(99, Double.NaN, -1)),
				Map.of("gateway", cpu(7.2)), Map.of("gateway", cpu(6.8)));
		Map<String, CpuCost> costs = Summary.cpuPerRequest(usages, new long[] { 30_000, 30_000, 29_000 });
		assertThat(costs).containsOnlyKeys("gateway");
		CpuCost g = costs.get("gateway");
		// 6.8e6 / 29,000 = 234.483
		assertThat(g.reps()).containsExactly(new double[] { 233.333, 240.0, 234.483 }, within(1e-3));
		assertThat(g.mean()).isCloseTo((233.3333 + 240.0 + 234.4828) / 3, within(1e-3));
		// t(0.975, 2) = 4.3027;
		// sd = 3.5638 -> half-width 4.3027 * 3.5638 / sqrt(3) = 8.853
		assertThat(g.ci95()).isCloseTo(8.853, within(1e-2));
	}

	private static Aggregate samples(int count) {
		Aggregate a = new Aggregate();
		for (int i = 0; i < count; i++) {
			a.add(new JtlSample(1_000_000L + i, 1 + i % 7, "l", "200", "OK", true, "", 1, "t"));
		}
		return a;
	}

	private static TargetRun.Rep rep(int samples) {
		return new TargetRun.Rep(samples(samples), new double[0], Map.of(), Map.of());
	}

	@Test
	void percentilesTheSamplesCannotSupportAreLeftOutNotPrinted() {
		Target target = new Target("gateway", "gateway", URI.create("http://127.0.0.1:1"), "gateway", null);
		// two repetitions of 999 samples (no p99 each, 1,998 together) and one of 1,000
		TargetRun run = TargetRun.of(target).withRep(rep(999)).withRep(rep(999)).withRep(rep(1_000));
		TargetResult few = Summary.of(run.withOpen(List.of(samples(9_999)), 500));
		assertThat(few.p50Ms()).isNotNull();
		assertThat(few.p99Ms()).isNotNull();
		assertThat(few.p99Reps()).hasSize(1);
		assertThat(few.openModel().p99Ms()).isNotNull();
		assertThat(few.openModel().p999Ms()).isNull();
		TargetResult enough = Summary.of(run.withOpen(List.of(samples(5_000), samples(5_000)), 500));
		assertThat(enough.openModel().p999Ms()).isNotNull();
		TargetResult tiny = Summary.of(TargetRun.of(target).withRep(rep(15)));
		assertThat(tiny.p50Ms()).isNull();
		assertThat(tiny.p99Ms()).isNull();
		assertThat(tiny.p99Reps()).isEmpty();
		assertThat(BenchReport.table(List.of(tiny))).contains("| – | – | – |").doesNotContain("| 0 |");
	}

}
