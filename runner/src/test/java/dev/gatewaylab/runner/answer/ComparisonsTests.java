package dev.gatewaylab.runner.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gatewaylab.runner.result.TargetResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ComparisonsTests {

	private static TargetResult t(String name, double[] tps, double[] p99) {
		return new TargetResult(name, "gateway", "http://127.0.0.1:8080", 100, 0, 0, 1, 1, 1, 1L, 1L, 1L, 100, Map.of(),
				tps, p99, Map.of(), 0, null, null, null, null);
	}

	@Test
	void experimentComparesEachVariantWithTheBaseline() {
		List<TargetResult> modes = List.of(t("off", new double[] { 1000, 1010, 990 }, new double[] { 10, 10, 10.5 }),
				t("logback", new double[] { 900, 905, 895 }, new double[] { 12, 12.5, 12 }),
				t("log4j2-sync", new double[] { 800, 790, 810 }, new double[] { 14, 14, 15 }),
				t("log4j2-async", new double[] { 950, 960, 940 }, new double[] { 11, 11, 11.5 }));
		List<String> lines = Comparisons.of(modes, true);
		assertThat(lines).hasSize(3);
		assertThat(lines.get(0)).startsWith("logback vs off: -10.");
		// (800 - 1000) / 1000 = -20 %
		assertThat(lines.get(1)).startsWith("log4j2-sync vs off: -20.0 % ± ")
			.contains("TPS — significant (Welch t-test p=")
			.contains("; p99 +");
		assertThat(lines.get(2)).startsWith("log4j2-async vs off: -5.0 % ± ");
	}

	@Test
	void p99IsNotComparedWithoutTwoRepetitionsThatCouldQuoteOne() {
		List<TargetResult> targets = List.of(t("gateway", new double[] { 300, 310, 305 }, new double[] { 5 }),
				t("direct", new double[] { 1000, 1020, 990 }, new double[] { 2, 2, 2.1 }));
		assertThat(Comparisons.of(targets, false)).singleElement()
			.asString()
			.startsWith("gateway vs direct: -69.")
			.endsWith("; p99 not compared (fewer than two repetitions on a side held the 1,000 samples a p99 needs)");
	}

	@Test
	void benchComparesTheGatewayWithEveryOtherTarget() {
		List<TargetResult> targets = List.of(t("gateway", new double[] { 300, 310, 305 }, new double[] { 5, 5, 5.2 }),
				t("direct", new double[] { 1000, 1020, 990 }, new double[] { 2, 2, 2.1 }),
				t("monolith", new double[] { 300, 320, 290 }, new double[] { 5, 5.5, 5 }));
		List<String> lines = Comparisons.of(targets, false);
		assertThat(lines).hasSize(2);
		assertThat(lines.get(0)).startsWith("gateway vs direct: -69.").contains("significant");
		assertThat(lines.get(1)).startsWith("gateway vs monolith: +").contains("not significant");
	}

}
