package dev.gatewaylab.runner.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class PercentilesTests {

	@Test
	void aPercentileNeedsTenSamplesAboveIt() {
		assertThat(Percentiles.minSamples(50)).isEqualTo(20);
		assertThat(Percentiles.minSamples(90)).isEqualTo(100);
		assertThat(Percentiles.minSamples(99)).isEqualTo(1_000);
		assertThat(Percentiles.minSamples(99.9)).isEqualTo(10_000);
		assertThat(Percentiles.supported(999, 99)).isFalse();
		assertThat(Percentiles.supported(1_000, 99)).isTrue();
		assertThatIllegalArgumentException().isThrownBy(() -> Percentiles.minSamples(100));
		assertThatIllegalArgumentException().isThrownBy(() -> Percentiles.minSamples(0));
	}

	@Test
	void aHistogramWithTooFewSamplesHasNoFigureForThePercentile() {
		Histogram h = new Histogram(3);
		h.recordValueWithCount(300_000, 989);
		h.recordValueWithCount(9_000_000, 10);
		assertThat(Percentiles.of(h, 50, 1000)).isCloseTo(300.0, within(1.0));
		assertThat(Percentiles.of(h, 99, 1000)).isNull();
		h.recordValue(9_000_000);
		assertThat(Percentiles.of(h, 99, 1000)).isCloseTo(9000, within(9.0));
		assertThat(Percentiles.of(new Histogram(3), 50, 1000)).isNull();
	}

	@Test
	void theRuleNamesEachThreshold() {
		assertThat(Percentiles.name(99)).isEqualTo("p99");
		assertThat(Percentiles.name(99.9)).isEqualTo("p99.9");
		assertThat(Percentiles.rule()).contains("p50 from 20 samples")
			.contains("p99 from 1,000")
			.contains("p99.9 from 10,000");
	}

}
