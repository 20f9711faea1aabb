package dev.gatewaylab.runner.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StatsTests {

	@Test
	void meanAndSampleStddevMatchHandComputedValues() {
		double[] v = { 2, 4, 4, 4, 5, 5, 7, 9 };
		assertThat(Stats.mean(v)).isEqualTo(5.0);
		// sum of squared deviations = 32, n - 1 = 7
		assertThat(Stats.stddev(v)).isCloseTo(Math.sqrt(32.0 / 7), within(1e-12));
		assertThat(Stats.stddev(new double[] { 3 })).isZero();
	}

	/**
	 * Two-sided 95 % Student t critical values from the standard table, n = df + 1 from 2
	 * to 30.
	 */
	@ParameterizedTest
	@CsvSource({ "1,12.706", "2,4.303", "3,3.182", "4,2.776", "5,2.571", "6,2.447", "7,2.365", "8,2.306", "9,2.262",
			"10,2.228", "14,2.145", "19,2.093", "24,2.064", "29,2.045" })
	void studentTCriticalValuesMatchTheTable(int df, double tabulated) {
		assertThat(Stats.tCritical(df, 0.95)).isCloseTo(tabulated, within(0.0005));
	}

	@Test
	void ci95IsTTimesStandardError() {
		double[] v = { 100, 110, 120 };
		// s = 10, n = 3, t(2) = 4.303 -> 4.303 * 10 / sqrt(3) = 24.84
		assertThat(Stats.ci95(v)).isCloseTo(24.84, within(0.01));
		assertThat(Stats.ci95(new double[] { 1 })).isNaN();
	}

	@Test
	void welchMatchesAHandComputedExample() {
		// a: mean 12, var 4; b: mean 17, var 4 -> SE = sqrt(8/3) = 1.63299, t = 3.0619,
		// Welch–Satterthwaite df = 4, t(4) = 2.7764 -> CI ± 4.5339, two-sided p = 0.0376.
		Stats.Welch w = Stats.welch(new double[] { 10, 12, 14 }, new double[] { 15, 17, 19 });
		assertThat(w.diff()).isEqualTo(5.0);
		assertThat(w.df()).isCloseTo(4.0, within(1e-9));
		assertThat(w.ci95()).isCloseTo(4.5339, within(0.0005));
		assertThat(w.p()).isCloseTo(0.0376, within(0.0005));
		assertThat(w.diffPercent()).isCloseTo(41.667, within(0.001));
		assertThat(w.significant()).isTrue();
		assertThat(w.verdict()).isEqualTo("+41.7 % ± 37.8 % — significant (Welch t-test p=0.038)");
	}

	@Test
	void welchWithUnequalVariancesAndSizesGivesTheFiguresCommonsMath3Gave() {
		// Figures of commons-math3 3.6.1 (TTest.tTest, TDistribution), the library before
		// Commons Statistics: df = 3.370974, t(df) = 2.993204, CI ± 11.863650, p =
		// 0.903992.
		Stats.Welch w = Stats.welch(new double[] { 101.5, 98.2, 103.9, 99.7, 100.4 },
				new double[] { 96.0, 108.3, 91.7, 104.9 });
		assertThat(w.diff()).isCloseTo(-0.515, within(1e-9));
		assertThat(w.df()).isCloseTo(3.370974, within(1e-6));
		assertThat(w.ci95()).isCloseTo(11.863650, within(1e-5));
		assertThat(w.p()).isCloseTo(0.903992, within(1e-6));
		assertThat(Stats.tCritical(2.5, 0.95)).isCloseTo(3.574655, within(1e-6));
	}

	@Test
	void welchOnOverlappingSamplesIsNotSignificant() {
		Stats.Welch w = Stats.welch(new double[] { 100, 104, 98 }, new double[] { 101, 99, 103 });
		assertThat(w.significant()).isFalse();
		assertThat(w.verdict()).contains("not significant");
	}

	@Test
	void percentilesAreExactForSmallIntegerLatencies() {
		Aggregate a = new Aggregate();
		for (int ms = 1; ms <= 100; ms++) {
			a.add(new JtlSample(1_000_000L + ms * 10L, ms, "l", "200", "OK", true, "", 1, "t"));
		}
		assertThat(a.percentileMs(50)).isEqualTo(50);
		assertThat(a.percentileMs(90)).isEqualTo(90);
		assertThat(a.percentileMs(99)).isEqualTo(99);
		assertThat(a.minMs()).isEqualTo(1);
		assertThat(a.maxMs()).isEqualTo(100);
		assertThat(a.avgMs()).isEqualTo(50.5);
		assertThat(a.successRate()).isEqualTo(100.0);
	}

	@Test
	void errorsAreGroupedByResponseCodeAndMessage() {
		Aggregate a = new Aggregate();
		a.add(new JtlSample(1000, 5, "l", "200", "OK", true, "", 1, "t"));
		a.add(new JtlSample(1010, 5, "l", "503", "Service Unavailable", false, "", 1, "t"));
		a.add(new JtlSample(1020, 5, "l", "503", "Service Unavailable", false, "", 1, "t"));
		a.add(new JtlSample(1030, 5, "l", "200", "OK", false, "Test failed: text expected to contain /Studies/", 1,
				"t"));
		assertThat(a.errors()).containsEntry("503: Service Unavailable", 2L)
			.containsEntry("200: Test failed: text expected to contain /Studies/", 1L);
		assertThat(a.successRate()).isEqualTo(25.0);
		// window: first start 1000 .. last end 1035 -> 0.035 s
		assertThat(a.tps()).isCloseTo(4 / 0.035, within(1e-9));
	}

	@Test
	void risingTrendFlagsRepetitionsThatKeepClimbing() {
		// The default bench on a 2-core machine before the adaptive warm-up:
		// 457 -> 1058 -> 2021 TPS.
		assertThat(Stats.risingTrend(new double[] { 457, 1058, 2021 })).isTrue();
		// rising, but only 10 %
		assertThat(Stats.risingTrend(new double[] { 1000, 1050, 1100 })).isFalse();
		// not monotonic
		assertThat(Stats.risingTrend(new double[] { 1000, 1500, 1400 })).isFalse();
		// two points are no trend
		assertThat(Stats.risingTrend(new double[] { 500, 2000 })).isFalse();
	}

}
