package dev.gatewaylab.runner.stats;

import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * Which percentiles a sample can support. A percentile is quoted only from a histogram
 * that holds at least {@value #TAIL} samples above it: p50 needs 20 samples, p90 100, p99
 * 1,000, p99.9 10,000. Below that the "p99" of a window is one of its few slowest
 * requests, and moves by a factor with the next one: the lab prints "–" and says how many
 * samples there were instead. Pure.
 */
public final class Percentiles {

	/** Samples that must lie above a percentile for it to be quoted. */
	public static final int TAIL = 10;

	private Percentiles() {
	}

	/** The fewest samples from which {@code percentile} (0–100, below 100) is quoted. */
	public static long minSamples(double percentile) {
		if (!(percentile > 0 && percentile < 100)) {
			throw new IllegalArgumentException("percentile must be above 0 and below 100: " + percentile);
		}
		return Math.round(TAIL / (1 - percentile / 100));
	}

	/** True when {@code samples} can support {@code percentile}. */
	public static boolean supported(long samples, double percentile) {
		return samples >= minSamples(percentile);
	}

	/**
	 * The histogram's {@code percentile} divided by {@code unit} (1,000 for µs from ns),
	 * or null when it holds too few samples for it.
	 */
	public static Double of(Histogram h, double percentile, double unit) {
		return supported(h.getTotalCount(), percentile) ? h.getValueAtPercentile(percentile) / unit : null;
	}

	/** "p99" for 99, "p99.9" for 99.9. */
	public static String name(double percentile) {
		return percentile == Math.rint(percentile) ? String.format(Locale.ROOT, "p%.0f", percentile) : "p" + percentile;
	}

	/** The rule in words, for reports: "p50 from ≥ 20 samples, p99 from ≥ 1,000 ...". */
	public static String rule() {
		return String.format(Locale.ROOT,
				"a percentile is shown only where at least %d samples lie above it (p50 from %,d samples, p90 from "
						+ "%,d, p99 from %,d, p99.9 from %,d); otherwise –",
				TAIL, minSamples(50), minSamples(90), minSamples(99), minSamples(99.9));
	}

}
