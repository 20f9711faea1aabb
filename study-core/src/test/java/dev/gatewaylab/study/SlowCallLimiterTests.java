package dev.gatewaylab.study;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SlowCallLimiterTests {

	@Test
	void zeroMeansHalfOfTomcatsPoolOnPlatformThreadsAndNoPracticalBoundOnVirtualThreads() {
		assertThat(SlowCallLimiter.effectiveMax(0, false)).isEqualTo(100);
		assertThat(SlowCallLimiter.effectiveMax(0, true)).isEqualTo(10_000);
	}

	@Test
	void aConfiguredBoundWinsEitherWay() {
		assertThat(SlowCallLimiter.effectiveMax(30, false)).isEqualTo(30);
		assertThat(SlowCallLimiter.effectiveMax(30, true)).isEqualTo(30);
	}

}
