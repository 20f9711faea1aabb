package dev.gatewaylab.runner.stats;

import org.apache.commons.statistics.distribution.TDistribution;
import org.apache.commons.statistics.inference.AlternativeHypothesis;
import org.apache.commons.statistics.inference.DataDispersion;
import org.apache.commons.statistics.inference.TTest;

/** Small-sample statistics over per-repetition figures (Student t, Welch). */
public final class Stats {

	/** Welch's t-test, two-sided: unequal variances, the Welch–Satterthwaite df. */
	private static final TTest WELCH = TTest.withDefaults()
		.with(DataDispersion.HETEROSCEDASTIC)
		.with(AlternativeHypothesis.TWO_SIDED);

	/**
	 * The widest CI95 half-width, as a share of the figure, that still resolves it: the
	 * rule every figure of a run's answer is held to.
	 */
	public static final double RESOLVED = 0.25;

	private Stats() {
	}

	/**
	 * True when the figure passes {@link #RESOLVED}. No interval (one value) is not
	 * judged; a wide one or an undefined figure is.
	 */
	public static boolean resolved(double value, double ci) {
		return !Double.isNaN(value) && (Double.isNaN(ci) || ci <= RESOLVED * Math.abs(value));
	}

	public static double mean(double[] values) {
		if (values.length == 0) {
			return Double.NaN;
		}
		double sum = 0;
		for (double v : values) {
			sum += v;
		}
		return sum / values.length;
	}

	/**
	 * The middle value (mean of the two middle ones for an even count); NaN when empty.
	 */
	public static double median(double[] values) {
		if (values.length == 0) {
			return Double.NaN;
		}
		double[] sorted = values.clone();
		java.util.Arrays.sort(sorted);
		int n = sorted.length;
		return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	}

	/** Sample standard deviation (n - 1 denominator); 0 for a single value. */
	public static double stddev(double[] values) {
		int n = values.length;
		if (n < 2) {
			return 0;
		}
		double m = mean(values);
		double ss = 0;
		for (double v : values) {
			ss += (v - m) * (v - m);
		}
		return Math.sqrt(ss / (n - 1));
	}

	/**
	 * Two-sided Student t critical value for the given confidence (e.g. 0.95) and degrees
	 * of freedom.
	 */
	public static double tCritical(double df, double confidence) {
		return TDistribution.of(df).inverseCumulativeProbability(1 - (1 - confidence) / 2);
	}

	/**
	 * Half-width of the 95 % confidence interval of the mean; NaN with fewer than two
	 * values.
	 */
	public static double ci95(double[] values) {
		int n = values.length;
		if (n < 2) {
			return Double.NaN;
		}
		return tCritical(n - 1, 0.95) * stddev(values) / Math.sqrt(n);
	}

	/**
	 * True when at least three values rise strictly one after the other and the last is ≥
	 * 20 % above the first: repetitions that drift like this were not measured at steady
	 * state.
	 */
	public static boolean risingTrend(double[] values) {
		if (values.length < 3) {
			return false;
		}
		for (int i = 1; i < values.length; i++) {
			if (values[i] <= values[i - 1]) {
				return false;
			}
		}
		return values[values.length - 1] >= 1.2 * values[0];
	}

	/**
	 * Welch's unequal-variance comparison of B against A: difference of means, its 95 %
	 * CI half-width (Welch–Satterthwaite degrees of freedom) and the two-sided p-value.
	 */
	public static Welch welch(double[] a, double[] b) {
		if (a.length < 2 || b.length < 2) {
			throw new IllegalArgumentException("Welch's t-test needs at least two values per side");
		}
		double ma = mean(a);
		double mb = mean(b);
		double va = Math.pow(stddev(a), 2) / a.length;
		double vb = Math.pow(stddev(b), 2) / b.length;
		double se = Math.sqrt(va + vb);
		double diff = mb - ma;
		if (se == 0) {
			return new Welch(ma, mb, diff, 0, Double.POSITIVE_INFINITY, diff == 0 ? 1.0 : 0.0);
		}
		double df = (va + vb) * (va + vb) / (va * va / (a.length - 1) + vb * vb / (b.length - 1));
		double half = tCritical(df, 0.95) * se;
		double p = WELCH.test(a, b).getPValue();
		return new Welch(ma, mb, diff, half, df, p);
	}

	/** Result of {@link #welch}: B minus A. */
	public record Welch(double meanA, double meanB, double diff, double ci95, double df, double p) {

		public double diffPercent() {
			return 100 * diff / meanA;
		}

		public double ci95Percent() {
			return 100 * ci95 / meanA;
		}

		public boolean significant() {
			return p < 0.05;
		}

		/** e.g. {@code +4.1 % ± 2.3 % — significant (Welch t-test p=0.010)}. */
		public String verdict() {
			return String.format(java.util.Locale.ROOT, "%+.1f %% ± %.1f %% — %s (Welch t-test p=%.3f)", diffPercent(),
					ci95Percent(), significant() ? "significant" : "not significant", p);
		}
	}

}
