package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.run.Settings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the equal-load phase gets its discarded warm-up window per target (the rule; the
 * effect is in docs).
 */
class EqualLoadTests {

	private static Settings settings(int warmupSeconds, boolean quick) {
		return new Settings(8, 3, warmupSeconds, 120, 8, 0, false, 1, 0, List.of(), Map.of(), null, null, 0, null,
				quick, null, false, null);
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

}
