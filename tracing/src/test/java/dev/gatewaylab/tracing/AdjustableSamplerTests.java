package dev.gatewaylab.tracing;

import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class AdjustableSamplerTests {

	@Test
	void samplesTheGivenShareOfTraces() {
		assertThat(sampled(new AdjustableSampler(0.0f), 1000)).isZero();
		assertThat(sampled(new AdjustableSampler(1.0f), 1000)).isEqualTo(1000);
		// Brave's counting sampler: exactly 10 of every 100 decisions
		assertThat(sampled(new AdjustableSampler(0.1f), 1000)).isEqualTo(100);
	}

	@Test
	void probabilityChangesWhileInUse() {
		AdjustableSampler sampler = new AdjustableSampler(0.0f);
		assertThat(sampled(sampler, 100)).isZero();
		sampler.probability(1.0f);
		assertThat(sampler.probability()).isEqualTo(1.0f);
		assertThat(sampled(sampler, 100)).isEqualTo(100);
	}

	@Test
	void probabilityOutsideZeroToOneIsRefusedAndTheOldOneKept() {
		AdjustableSampler sampler = new AdjustableSampler(0.5f);
		assertThatIllegalArgumentException().isThrownBy(() -> sampler.probability(1.5f))
			.withMessageContaining("between 0.0 and 1.0");
		assertThatIllegalArgumentException().isThrownBy(() -> sampler.probability(Float.NaN));
		assertThatIllegalArgumentException().isThrownBy(() -> new AdjustableSampler(-0.1f));
		assertThat(sampler.probability()).isEqualTo(0.5f);
	}

	private static long sampled(AdjustableSampler sampler, int traces) {
		return LongStream.range(1, traces + 1).filter(sampler::isSampled).count();
	}

}
