package dev.gatewaylab.runner.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gatewaylab.runner.result.LatencyResult;
import dev.gatewaylab.runner.result.RepResult;
import dev.gatewaylab.runner.result.TargetResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ValidityTests {

	private static TargetResult t(String name, long samples, double success) {
		return new TargetResult(name, name, "http://127.0.0.1:1", samples, 0, 0, 1, 1, 1, 1L, 1L, 1L, success, Map.of(),
				new double[0], new double[0], Map.of(), 0, null, null, null, null);
	}

	private static LatencyResult latency(long requests, double success) {
		LatencyResult.Point p = new LatencyResult.Point(1690, 1690, requests, requests, success, 1, 1.0, 1.0, 1.0, null,
				1, 0, false, 1);
		return new LatencyResult("generator", null, 1690,
				List.of(new LatencyResult.Level(1690, Map.of("gateway", p), null)), null, null, "rule");
	}

	private static final List<RepResult> REPS = List
		.of(new RepResult("gateway", 1, 100, 0, 10, 1, 1L, 3, "raw/g.jtl", 1.0, null));

	@Test
	void aRunWithEveryTargetAboveTheThresholdAndSamplesEverywhereIsValid() {
		assertThat(Validity.reasons(List.of(t("gateway", 100, 99.5)), REPS, latency(5000, 100), 99, false)).isEmpty();
	}

	@Test
	void aTargetUnderTheThresholdInAnyPhaseMakesTheRunInvalid() {
		assertThat(Validity.reasons(List.of(t("gateway", 100, 98.9)), REPS, latency(5000, 100), 99, false))
			.containsExactly("gateway, closed model (JMeter): 98.90 % of requests succeeded, under the 99 % a run "
					+ "needs (--min-success)");
		assertThat(Validity.reasons(List.of(t("gateway", 100, 100)), REPS, latency(5000, 0), 99, false))
			.containsExactly("gateway at 1,690 req/s (latency generator): 0.00 % of requests succeeded, under the 99 % "
					+ "a run needs (--min-success)");
		assertThat(Validity.reasons(List.of(t("gateway", 100, 98.9)), REPS, null, 98.5, false)).isEmpty();
	}

	@Test
	void anEngineThatProducedNothingMakesTheRunInvalidExperimentsIncluded() {
		List<RepResult> empty = List.of(new RepResult("gateway", 2, 0, 0, 0, 0, null, 0, "raw/g.jtl", 1.0, null));
		assertThat(Validity.reasons(List.of(t("gateway", 100, 100)), empty, latency(0, 0), 99, true)).containsExactly(
				"gateway, closed-model rep 2 (JMeter): the engine produced nothing",
				"gateway at 1,690 req/s (latency generator): the generator produced nothing (no request sent or recorded)");
		assertThat(Validity.reasons(List.of(t("gateway", 100, 50)), REPS, null, 99, true))
			.as("an experiment's failing requests may be what it measures")
			.isEmpty();
	}

}
