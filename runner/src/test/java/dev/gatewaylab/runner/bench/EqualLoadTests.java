package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.run.Settings;
import dev.gatewaylab.runner.run.Target;
import dev.gatewaylab.runner.run.TestSettings;
import dev.gatewaylab.runner.stats.Aggregate;
import dev.gatewaylab.runner.stats.JtlSample;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The equal-load phase's rate, and when it gets its discarded warm-up window per target
 * (the rule; the effect is in docs).
 */
class EqualLoadTests {

	private static Settings settings(int warmupSeconds, boolean quick) {
		return TestSettings.bench().warmup(warmupSeconds).quick(quick).build();
	}

	@Test
	void aRunThatWarmsUpAlsoWarmsTheEqualLoadPhase() {
		assertThat(EqualLoad.warms(settings(5, false))).isTrue();
	}

	@Test
	void noWarmUpAskedForMeansNoneHereEither() {
		assertThat(EqualLoad.warms(settings(0, false))).isFalse();
	}

	@Test
	void aQuickSmokeRunKeepsItsTimeBudget() {
		assertThat(EqualLoad.warms(settings(2, true))).isFalse();
	}

	/**
	 * {@code count} samples of 1 ms, evenly spread over {@code seconds} from
	 * {@code startMs}.
	 */
	private static TargetRun.Rep window(long startMs, int seconds, int count) {
		Aggregate a = new Aggregate();
		for (int i = 0; i < count; i++) {
			a.add(new JtlSample(startMs + (long) i * seconds * 1000 / count, 1, "l", "200", "OK", true, "", 8, "t"));
		}
		return new TargetRun.Rep(a, new double[0], Map.of(), Map.of());
	}

	private static TargetRun run(String name, TargetRun.Rep... reps) {
		TargetRun r = TargetRun.of(new Target(name, name, URI.create("http://127.0.0.1:1"), name, null));
		for (TargetRun.Rep rep : reps) {
			r = r.withRep(rep);
		}
		return r;
	}

	@Test
	void theRateIsAFifthOfTheSlowestTargetsTpsAsTheReportGivesIt() {
		// interleaved 3 s windows: gateway 0–3 s and 9–12 s at 1,000 and 1,200 req/s,
		// direct 3–6 s and 6–9 s at 2,000 req/s. The gateway's samples over the span of
		// its windows (6,600 in 12 s = 550 req/s) would put the rate at 110.
		TargetRun gateway = run("gateway", window(0, 3, 3_000), window(9_000, 3, 3_600));
		TargetRun direct = run("direct", window(3_000, 3, 6_000), window(6_000, 3, 6_000));
		assertThat(gateway.tpsReps()).containsExactly(1_000, 1_200);
		assertThat(EqualLoad.rate(settings(5, false), List.of(gateway, direct))).isEqualTo(220);
	}

	@Test
	void anExplicitRateWinsAndTheRateIsNeverBelowOne() {
		Settings withRate = TestSettings.bench().rate(1234).build();
		TargetRun gateway = run("gateway", window(0, 3, 3_000));
		assertThat(EqualLoad.rate(withRate, List.of(gateway))).isEqualTo(1234);
		assertThat(EqualLoad.rate(settings(5, false), List.of(run("gateway", window(0, 3, 3))))).isEqualTo(1);
	}

}
