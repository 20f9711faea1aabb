package dev.gatewaylab.runner.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.gatewaylab.runner.experiment.Experiment;
import dev.gatewaylab.runner.result.RunResult;
import dev.gatewaylab.runner.result.TargetResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The TPS ratios a run rests on and the sentences it leads with: gateway ÷ each other
 * target, an experiment's variants ÷ its baseline or their own off arms, an open-model
 * experiment's latency.
 */
class AnswerTests {

	@Test
	void ratiosArePairedByInterleavedRepetition() {
		List<RunResult.Ratio> r = Answer.ratios(List.of(t("gateway", new double[] { 2000, 2100, 2050 }),
				t("direct", new double[] { 10000, 10000, 10250 })));
		assertThat(r).hasSize(1);
		assertThat(r.get(0).reps()).containsExactly(0.2, 0.21, 0.2);
		assertThat(r.get(0).mean()).isCloseTo(0.20333, within(1e-4));
		String s = HopSentence.of(List.of(t("gateway", new double[] { 2000, 2100, 2050 }),
				t("direct", new double[] { 10000, 10000, 10250 })), r, Map.of("gateway", "gateway"), null);
		assertThat(s).contains("gateway ÷ direct TPS 0.20 ± 0.0").contains("not measured");
		List<TargetResult> one = List.of(t("gateway", new double[] { 2000 }), t("direct", new double[] { 10000 }));
		assertThat(HopSentence.of(one, Answer.ratios(one), Map.of(), null))
			.contains("gateway ÷ direct TPS 0.20 (one repetition: no interval)")
			.doesNotContain("NaN");
	}

	@Test
	void theMvcGatewayBesideTheGatewayIsAlsoComparedWithDirect() {
		List<RunResult.Ratio> r = Answer.ratios(List.of(t("gateway", new double[] { 2000, 2000 }),
				t("gateway-mvc", new double[] { 1000, 1500 }), t("direct", new double[] { 10000, 10000 })));
		assertThat(r).extracting(RunResult.Ratio::of).containsExactly("gateway", "gateway", "gateway-mvc");
		assertThat(r).extracting(RunResult.Ratio::to).containsExactly("gateway-mvc", "direct", "direct");
		assertThat(r.get(2).reps()).containsExactly(0.1, 0.15);
	}

	@Test
	void theOpenExperimentThroughBothGatewaysSaysWhatEachAddsOverDirect() {
		List<TargetResult> results = List.of(open("platform-direct", 800L, 100), open("platform-gateway", 900L, 99.5),
				open("platform-gateway-mvc", 850L, 100), open("virtual-direct", 790L, 100),
				open("virtual-gateway", 3800L, 97), open("virtual-gateway-mvc", 800L, 100));
		assertThat(Answer.openExperimentSentence("virtual-threads", 600, results))
			.contains("platform-gateway-mvc 850 ms / 0.00 %")
			.endsWith("added at p99 over direct: platform-gateway +100 ms, platform-gateway-mvc +50 ms, "
					+ "virtual-gateway +3,010 ms, virtual-gateway-mvc +10 ms.");
	}

	@Test
	void aToggledVariantIsComparedWithItsOwnOffArm() {
		List<TargetResult> results = List.of(result("logback", 940, 950, 930), result("logback-off", 1000, 1000, 1000),
				result("log4j2-async", 990, 985, 995), result("log4j2-async-off", 1000, 1000, 1000));
		List<RunResult.Ratio> ratios = Answer.ratiosToOffArm(results, "off");
		assertThat(ratios).extracting(RunResult.Ratio::of).containsExactly("logback", "log4j2-async");
		assertThat(ratios).extracting(RunResult.Ratio::to).containsExactly("logback-off", "log4j2-async-off");
		assertThat(ratios.get(0).reps()).containsExactly(0.94, 0.95, 0.93);
		String sentence = Answer.toggleSentence("logging", Experiment.named("logging").toggle(), results, ratios,
				Map.of("logback", "gateway", "log4j2-async", "gateway"), 0.03, 2);
		assertThat(sentence)
			.startsWith("Logging experiment, the access log on ÷ off in the same JVM (switched in 2 s segments")
			.contains("logback ×0.940 ± 0.025, -6.0 ± 2.5 points")
			.contains("NOT within 3 % of logback-off")
			.contains("log4j2-async ×0.990 ± 0.012, -1.0 ± 1.2 points")
			.contains("within 3 % of log4j2-async-off");
		assertThat(Comparisons.ofPairs(results, "off")).hasSize(2)
			.first()
			.asString()
			.startsWith("logback vs logback-off: ");
	}

	@Test
	void openExperimentAnswersWithP99AndWhatTheGatewayAdds() {
		List<TargetResult> results = List.of(open("platform-direct", 800L, 100), open("platform-gateway", 900L, 99.5),
				open("virtual-direct", 790L, 100), open("virtual-gateway", 3800L, 97));
		assertThat(Answer.openExperimentSentence("virtual-threads", 600, results)).startsWith(
				"Virtual-threads experiment at 600 req/s (open model), p99 / errors: platform-direct 800 ms / 0.00 %")
			.endsWith("the gateway adds at p99: platform +100 ms, virtual +3,010 ms.");
		// a variant whose samples could not support a p99:
		// said so, and nothing added for it
		List<TargetResult> few = List.of(open("platform-direct", 800L, 100), open("platform-gateway", null, 100));
		assertThat(Answer.openExperimentSentence("virtual-threads", 600, few))
			.contains("platform-gateway p99 not resolved (100 samples) / 0.00 %")
			.doesNotContain("adds");
	}

	@Test
	void variantRatiosArePerRepetitionAgainstTheBaseline() {
		List<TargetResult> results = List.of(result("defaults", 1000, 1000, 1000), result("nio", 900, 950, 1000));
		List<RunResult.Ratio> ratios = Answer.ratiosToFirst(results);
		assertThat(ratios).hasSize(1);
		assertThat(ratios.get(0).of()).isEqualTo("nio");
		assertThat(ratios.get(0).to()).isEqualTo("defaults");
		assertThat(ratios.get(0).reps()).containsExactly(0.9, 0.95, 1.0);
		assertThat(ratios.get(0).mean()).isEqualTo(0.95, org.assertj.core.data.Offset.offset(1e-9));
		assertThat(Answer.experimentSentence("tuning", results, ratios, Map.of(), 0))
			.startsWith("Tuning experiment, against defaults")
			.contains("nio ×0.950 ± ")
			.doesNotContain("within");
	}

	@Test
	void aToleranceGivesAVerdictFromTheWholeInterval() {
		assertThat(Answer.verdict(new RunResult.Ratio("30m", "off", 0.99, 0.01, new double[0]), "off", 0.03))
			.isEqualTo("within 3 % of off");
		assertThat(Answer.verdict(new RunResult.Ratio("30m", "off", 0.90, 0.02, new double[0]), "off", 0.03))
			.isEqualTo("NOT within 3 % of off");
		assertThat(Answer.verdict(new RunResult.Ratio("30m", "off", 1.10, 0.02, new double[0]), "off", 0.03))
			.isEqualTo("NOT within 3 % of off");
		assertThat(Answer.verdict(new RunResult.Ratio("30m", "off", 0.98, 0.02, new double[0]), "off", 0.03))
			.startsWith("undecided at 3 % (interval 0.960–1.000");
		List<TargetResult> results = List.of(result("off", 1000, 1000, 1000), result("30m", 990, 1000, 1010));
		assertThat(Answer.experimentSentence("deny-list", results, Answer.ratiosToFirst(results), Map.of(), 0.03))
			.startsWith("Deny-list experiment, against off")
			.contains("30m ×1.000 ± ")
			.contains("within 3 % of off");
	}

	private static TargetResult t(String name, double[] tps) {
		return new TargetResult(name, name, "http://127.0.0.1:1", 1, 0, 0, 1, 1, 1, 1L, 1L, 1L, 100, Map.of(), tps,
				new double[tps.length], Map.of(), 0, null, null, null, null);
	}

	private static TargetResult open(String name, Long p99, double success) {
		return new TargetResult(name, "slow-upstream", "http://127.0.0.1:8080", 100, 600, 0, 1, 1, 1, 1L, 1L, p99,
				success, Map.of(), new double[] { 600, 600 }, p99 == null ? new double[0] : new double[] { p99, p99 },
				Map.of(), 600, null, null, null, null);
	}

	private static TargetResult result(String name, double... tps) {
		return new TargetResult(name, "gateway", "http://127.0.0.1:8080", 100, 0, 0, 1, 1, 1, 1L, 1L, 1L, 100, Map.of(),
				tps, new double[] { 1, 1, 1 }, Map.of(), 0, null, null, null, null);
	}

}
