package dev.gatewaylab.runner.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gatewaylab.runner.warmup.SteadyState.State;
import dev.gatewaylab.runner.warmup.SteadyState.Window;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The steady-state rule on synthetic warm-up series: warm, still compiling, noisy, cap
 * hit.
 */
class SteadyStateTests {

	private static Window w(double tps, double compileMs) {
		return new Window(5, tps, compileMs, "gateway");
	}

	@Test
	void warmWhenCompilationStoppedAndTheLastTwoWindowsAgree() {
		var v = SteadyState.judge(List.of(w(2000, 4000), w(5800, 900), w(6000, 40)), 15, 120);
		assertThat(v.state()).isEqualTo(State.WARM);
		assertThat(v.reason()).startsWith("steady: JIT compile +40 ms in the last 5 s")
			.contains("0.8 % of wall time", "gateway")
			.contains("last window 6,000 req/s, best before 5,800 (+3.4 %)");
		assertThat(v.compiling()).isFalse();
		assertThat(v.tpsMoving()).isFalse();
	}

	@Test
	void stillCompilingKeepsWarmingEvenWhenThroughputLooksFlat() {
		// TPS flat within 1 %, but the JIT spent 600 ms of a 5 s window (12 %):
		// C2 is still at work.
		var v = SteadyState.judge(List.of(w(6000, 2000), w(6050, 600)), 10, 120);
		assertThat(v.state()).isEqualTo(State.WARMING);
		assertThat(v.reason()).startsWith("still compiling: JIT compile +600 ms").contains("12.0 % of wall time");
		assertThat(v.compiling()).isTrue();
		assertThat(v.tpsMoving()).isFalse();
	}

	@Test
	void compileTimeIsAShareOfTheWallTimeSinceThePreviousReading() {
		// Warmed in turn with two other targets: read every 15 s.
		// 600 ms of JIT in 15 s is 4 %, not 12 %.
		var still = SteadyState
			.judge(List.of(new Window(5, 6000, 2000, "gateway", 15), new Window(5, 6050, 600, "gateway", 15)), 10, 120);
		assertThat(still.reason()).contains("+600 ms in the last 15 s (4.0 % of wall time");
		var warm = SteadyState.judge(
				List.of(new Window(5, 6000, 900, "gateway", 15), new Window(5, 6050, 240, "study-service", 15)), 10,
				120);
		assertThat(warm.state()).isEqualTo(State.WARM);
		assertThat(warm.reason()).contains("+240 ms in the last 15 s (1.6 % of wall time, study-service)");
	}

	@Test
	void risingThroughputKeepsWarmingEvenWithoutCompilation() {
		var v = SteadyState.judge(List.of(w(5000, 10), w(6000, 5)), 10, 120);
		assertThat(v.state()).isEqualTo(State.WARMING);
		assertThat(v.reason()).startsWith("throughput still rising")
			.contains("last window 6,000 req/s, best before 5,000 (+20.0 %)");
		assertThat(v.compiling()).isFalse();
		assertThat(v.tpsMoving()).isTrue();
	}

	@Test
	void aRiseIsMeasuredFromTheBestEarlierWindowNotTheLastOne() {
		// 7,800 → 6,800 → 7,500: 10 % above the window before, but below the best.
		var v = SteadyState.judge(List.of(w(7800, 40), w(6800, 30), w(7500, 20)), 15, 120);
		assertThat(v.state()).isEqualTo(State.WARM);
		assertThat(v.reason()).contains("best before 7,800 (-3.8 %)");
		var rising = SteadyState.judge(List.of(w(6000, 40), w(6800, 30), w(7500, 20)), 15, 120);
		assertThat(rising.state()).isEqualTo(State.WARMING);
		assertThat(rising.reason()).contains("best before 6,800 (+10.3 %)");
	}

	@Test
	void aFallIsNotWarmingOnceTheJitHasStopped() {
		// A noisy 13 % dip after the JIT finished: nothing left to warm.
		var v = SteadyState.judge(List.of(w(7800, 600), w(6800, 60)), 10, 120);
		assertThat(v.state()).isEqualTo(State.WARM);
		assertThat(v.tpsMoving()).isFalse();
	}

	@Test
	void capHitEndsTheWarmUpNotWarmAndSaysWhy() {
		var v = SteadyState.judge(List.of(w(5000, 300), w(6000, 200)), 121, 120);
		assertThat(v.state()).isEqualTo(State.CAPPED);
		assertThat(v.reason()).startsWith("cap of 120 s reached, still compiling").contains("throughput still rising");
		assertThat(SteadyState.judge(List.of(w(6000, 300)), 130, 120).state()).isEqualTo(State.CAPPED);
	}

	@Test
	void withoutJvmMetricsThroughputAloneDecides() {
		var v = SteadyState.judge(List.of(w(900, Double.NaN), w(910, Double.NaN)), 10, 120);
		assertThat(v.state()).isEqualTo(State.WARM);
		assertThat(v.reason()).contains("compile time unknown");
	}

	@Test
	void withoutJvmMetricsAFallKeepsWarmingToo() {
		// No compile time to say the JIT is done: the last two windows must also agree.
		var v = SteadyState.judge(List.of(w(6000, Double.NaN), w(5000, Double.NaN)), 10, 120);
		assertThat(v.state()).isEqualTo(State.WARMING);
		assertThat(v.reason()).startsWith("throughput still moving").contains("16.7 % apart");
		assertThat(v.tpsMoving()).isTrue();
	}

	@Test
	void oneWindowIsNeverEnough() {
		assertThat(SteadyState.judge(List.of(w(6000, 0)), 5, 120).state()).isEqualTo(State.WARMING);
	}

	@Test
	void spreadIsRelativeToTheLargerWindow() {
		assertThat(SteadyState.tpsSpreadPercent(95, 100)).isEqualTo(5.0);
		assertThat(SteadyState.tpsSpreadPercent(0, 0)).isZero();
	}

	@Test
	void riseIsRelativeToTheBestEarlierWindow() {
		assertThat(SteadyState.risePercent(100, 105)).isEqualTo(5.0);
		assertThat(SteadyState.risePercent(100, 90)).isEqualTo(-10.0);
		assertThat(SteadyState.risePercent(0, 0)).isZero();
		assertThat(SteadyState.risePercent(0, 10)).isInfinite();
	}

}
