package dev.gatewaylab.runner.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gatewaylab.runner.result.CpuCost;
import dev.gatewaylab.runner.result.LatencyResult;
import dev.gatewaylab.runner.result.RunResult;
import dev.gatewaylab.runner.result.TargetResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HopSentenceTests {

	private static TargetResult t(String name, CpuCost gatewayCpu) {
		return new TargetResult(name, name, "http://127.0.0.1:1", 1, 0, 0, 1, 1, 1, 1L, 1L, 1L, 100, Map.of(),
				new double[] { 1, 1 }, new double[2], Map.of(), 0,
				gatewayCpu == null ? null : Map.of("gateway", gatewayCpu), null, null, null);
	}

	private static LatencyResult.Estimate e(double mean, double ci) {
		return new LatencyResult.Estimate(mean, ci, new double[] { mean });
	}

	private static LatencyResult latency(LatencyResult.Estimate p50, LatencyResult.Estimate p99, Double knee) {
		LatencyResult.Added added = new LatencyResult.Added(p50, p99, null);
		LatencyResult.Level answer = new LatencyResult.Level(1690, Map.of(), added);
		LatencyResult.Level top = new LatencyResult.Level(2704, Map.of(), added);
		return new LatencyResult("generator", null, 1690, List.of(answer, top), added, knee, "rule");
	}

	private static String sentence(CpuCost cpu, RunResult.Ratio ratio, LatencyResult l) {
		return HopSentence.of(List.of(t("gateway", cpu), t("direct", null)), List.of(ratio), Map.of(), l);
	}

	@Test
	void theAnswerQuotesCpuRatioAndTheAddedLatencyInMsWithTwoSignificantDigitsAndTheKnee() {
		String s = sentence(new CpuCost(59.2, 1.1, new double[0]),
				new RunResult.Ratio("gateway", "direct", 0.41, 0.02, new double[0]),
				latency(e(212, 9), e(1420, 180), 6000.0));
		assertThat(s).isEqualTo("The gateway hop costs 59 µs ± 1 µs of gateway CPU per request; gateway ÷ direct TPS "
				+ "0.41 ± 0.02; at 1,690 req/s it adds 0.21 ± 0.01 ms at p50 and 1.4 ± 0.2 ms at p99 "
				+ "(knee ≈ 6,000 req/s).");
	}

	@Test
	void aFigureWhoseIntervalIsWiderThanAQuarterOfItselfIsNotResolved() {
		String s = sentence(new CpuCost(1008, 6753, new double[0]),
				new RunResult.Ratio("gateway", "direct", 1.13, 1.41, new double[0]),
				latency(e(120, 40), e(1400, 300), null));
		assertThat(s).isEqualTo("The gateway hop's CPU per request is not resolved (± 670 %); gateway ÷ direct TPS "
				+ "not resolved (± 125 %); at 1,690 req/s it adds not resolved (± 33 %) at p50 and 1.4 ± 0.3 ms at "
				+ "p99 (no knee up to 2,704 req/s).");
		assertThat(s).doesNotContain("1,008").doesNotContain("1.13");
	}

	@Test
	void aPercentileItsWindowsHadTooFewSamplesForIsNotResolvedAndNoKneeIsClaimed() {
		LatencyResult.Level low = new LatencyResult.Level(20, Map.of(),
				new LatencyResult.Added(e(1982, 0), null, null));
		LatencyResult.Level top = new LatencyResult.Level(62, Map.of(),
				new LatencyResult.Added(e(1779, 0), null, null));
		LatencyResult l = new LatencyResult("generator", null, 39, List.of(low, top),
				new LatencyResult.Added(e(2312, 300), null, null), null, "rule");
		String s = sentence(new CpuCost(59.2, 1.1, new double[0]),
				new RunResult.Ratio("gateway", "direct", 0.41, 0.02, new double[0]), l);
		assertThat(s).endsWith("at 39 req/s it adds 2.3 ± 0.3 ms at p50 and not resolved (too few samples: p99 "
				+ "needs 1,000 per window) at p99 (knee not judged: too few samples for p99).");
	}

	@Test
	void theMvcGatewayBesideTheGatewayGetsItsOwnClauseWithItsCpuRatioAndAddedLatency() {
		TargetResult mvc = new TargetResult("gateway-mvc", "gateway-mvc", "http://127.0.0.1:1", 1, 0, 0, 1, 1, 1, 1L,
				1L, 1L, 100, Map.of(), new double[] { 1, 1 }, new double[2], Map.of(), 0,
				Map.of("gateway-mvc", new CpuCost(95.4, 3.2, new double[0])), null, null, null);
		LatencyResult.Added gateway = new LatencyResult.Added(e(212, 9), e(1420, 180), null);
		LatencyResult.Added mvcAdded = new LatencyResult.Added(e(305, 12), e(2150, 260), null);
		LatencyResult l = new LatencyResult("generator", null, 1690,
				List.of(new LatencyResult.Level(1690, Map.of(), gateway, Map.of("gateway-mvc", mvcAdded))), gateway,
				Map.of("gateway-mvc", mvcAdded), null, "rule");
		String s = HopSentence.of(List.of(t("gateway", new CpuCost(59.2, 1.1, new double[0])), mvc, t("direct", null)),
				List.of(new RunResult.Ratio("gateway", "direct", 0.41, 0.02, new double[0]),
						new RunResult.Ratio("gateway-mvc", "direct", 0.30, 0.02, new double[0])),
				Map.of(), l);
		assertThat(s).startsWith("The gateway hop costs 59 µs ± 1 µs of gateway CPU per request; gateway ÷ direct TPS "
				+ "0.41 ± 0.02; at 1,690 req/s it adds 0.21 ± 0.01 ms at p50 and 1.4 ± 0.2 ms at p99 (knee not judged")
			.endsWith(". The MVC gateway (gateway-mvc): 95 µs ± 3 µs of gateway-mvc CPU per request; gateway-mvc ÷ "
					+ "direct TPS 0.30 ± 0.02; at 1,690 req/s it adds 0.31 ± 0.01 ms at p50 and 2.2 ± 0.3 ms at p99.");
	}

	@Test
	void noKneeIsNamedFromAnAddedP99ThatIsNotResolved() {
		// the added p99 at the answer rate, ± 183 %, is what a knee would be measured
		// against
		LatencyResult.Added atAnswer = new LatencyResult.Added(e(262, 12), e(1004, 1837), null);
		LatencyResult.Level answer = new LatencyResult.Level(1514, Map.of(), atAnswer);
		LatencyResult.Level top = new LatencyResult.Level(4542, Map.of(),
				new LatencyResult.Added(e(451, Double.NaN), e(3583, Double.NaN), null));
		LatencyResult l = new LatencyResult("generator", null, 1514, List.of(answer, top), atAnswer, 4542.0, "rule");
		String s = sentence(new CpuCost(59.2, 1.1, new double[0]),
				new RunResult.Ratio("gateway", "direct", 0.41, 0.02, new double[0]), l);
		assertThat(s).endsWith("at 1,514 req/s it adds 0.26 ± 0.01 ms at p50 and not resolved (± 183 %) at p99 "
				+ "(knee not judged: p99 not resolved).");
		assertThat(s).doesNotContain("4,542");
	}

	@Test
	void smokeRunsSaySoFirst() {
		assertThat(Answer.SMOKE).startsWith("Smoke run, not for quoting");
	}

}
