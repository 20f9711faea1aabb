package dev.gatewaylab.runner.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gatewaylab.runner.result.RepResult;
import dev.gatewaylab.runner.result.TargetResult;
import dev.gatewaylab.runner.result.WarmupResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The warning rules, each on the smallest result that triggers it and one that does not.
 */
class DiagnosisTests {

	private static final Diagnosis.Context LOCAL = new Diagnosis.Context(2, true, 5);

	private static TargetResult result(double successRate, double[] tps, Map<String, TargetResult.Resource> res) {
		return new TargetResult("gateway", "gateway", "http://127.0.0.1:8080", 100, 0, 0, 1, 1, 1, 1L, 1L, 1L,
				successRate, Map.of(), tps, new double[tps.length], res, 0, null, null, null, null);
	}

	private static TargetResult.Resource cpu(double percent) {
		return new TargetResult.Resource(percent, 200.0, null);
	}

	@Test
	void generatorSaturationIsJudgedAgainstTheRunnersShareOfTheMachine() {
		// Sharing 2 cores with the targets, the runner's share is 100 %: 80 % of it
		// warns, 79 % does not.
		assertThat(Diagnosis.generatorSaturation(result(100, new double[] { 1 }, Map.of("runner", cpu(80))), LOCAL))
			.hasValueSatisfying(w -> assertThat(w).contains("generator saturation", "80 % CPU", "(100 %)"));
		assertThat(Diagnosis.generatorSaturation(result(100, new double[] { 1 }, Map.of("runner", cpu(79))), LOCAL))
			.isEmpty();
		assertThat(Diagnosis.generatorSaturation(result(100, new double[] { 1 }, Map.of("runner", cpu(150))),
				new Diagnosis.Context(2, false, 5)))
			.isEmpty(); // alone on the machine: 200 % share
	}

	@Test
	void machineBoundAndIdleTarget() {
		assertThat(Diagnosis.machineBound(result(100, new double[] { 1 }, Map.of("machine", cpu(90))), LOCAL))
			.isPresent();
		assertThat(Diagnosis.machineBound(result(100, new double[] { 1 }, Map.of("machine", cpu(89))), LOCAL))
			.isEmpty();
		assertThat(Diagnosis.idleTarget(result(100, new double[] { 1 }, Map.of("gateway", cpu(9))), "gateway"))
			.hasValueSatisfying(w -> assertThat(w).contains("looked idle"));
		assertThat(Diagnosis.idleTarget(result(100, new double[] { 1 }, Map.of()), "gateway")).isEmpty();
	}

	@Test
	void aWarmUpThatEndedAtTheCapWarnsWithItsReason() {
		WarmupResult capped = new WarmupResult(120, 24, false, 1000.0, 9000.0, 50.0,
				"cap of 120 s reached, still compiling: JIT compile +400 ms");
		assertThat(Diagnosis.notSteady("gateway", capped, LOCAL)).hasValueSatisfying(
				w -> assertThat(w).contains("gateway: still warming up", "cap of 120 s reached", "--warmup-max"));
		WarmupResult warm = new WarmupResult(40, 8, true, 1000.0, 3000.0, 20.0, "steady: ...");
		assertThat(Diagnosis.notSteady("gateway", warm, LOCAL)).isEmpty();
		assertThat(Diagnosis.notSteady("gateway", null, LOCAL)).isEmpty();
	}

	@Test
	void risingRepetitionsAndFailedRequests() {
		assertThat(Diagnosis.risingTrend("gateway", new double[] { 100, 130, 160 }))
			.hasValueSatisfying(w -> assertThat(w).contains("100 → 130 → 160"));
		assertThat(Diagnosis.risingTrend("gateway", new double[] { 100, 130, 120 })).isEmpty();
		assertThat(Diagnosis.lowSuccess(result(98.5, new double[] { 1 }, Map.of())))
			.hasValueSatisfying(w -> assertThat(w).contains("success rate 98.50 %"));
		assertThat(Diagnosis.lowSuccess(result(99, new double[] { 1 }, Map.of()))).isEmpty();
	}

	@Test
	void aMachineThatChangedSpeedDuringTheRunIsNamedWithItsCalibrations() {
		List<RepResult> steady = List.of(rep(20.0), rep(21.5), rep(20.4));
		assertThat(Diagnosis.machineSpeedChanged(steady)).isEmpty();
		List<RepResult> shifted = List.of(rep(20.0), rep(21.0), rep(41.0));
		assertThat(Diagnosis.machineSpeedChanged(shifted)).get()
			.asString()
			.startsWith("the machine's speed changed by 105 % during the run")
			.contains("20.0–41.0 ms");
		assertThat(Diagnosis.machineSpeedChanged(List.of(new RepResult("g", 1, 1, 0, 1, 1, 1L, 1, "x")))).isEmpty();
	}

	private static RepResult rep(double calibrationMs) {
		return new RepResult("gateway", 1, 100, 0, 100, 1, 1L, 1, "raw/x.jtl", calibrationMs, null);
	}

}
