package dev.gatewaylab.runner.curve;

import dev.gatewaylab.runner.stats.Percentiles;

/**
 * How long the latency generator's windows last ({@link LatencyPhase}): at the answer
 * rate, at the curve's other rates, and stretched where a p99 needs the samples.
 */
final class WindowLengths {

	/**
	 * Windows at the curve's other rates last long enough for {@value #CURVE_SAMPLES}
	 * samples, within [2, 4] s (the run's time budget: a point short of 10,000 prints its
	 * count and no p99.9).
	 */
	static final long CURVE_SAMPLES = 10_000;

	/**
	 * The longest a window is stretched so that it holds the samples a p99 needs
	 * ({@link Percentiles#minSamples}: 1,000, and {@link #P99_SAMPLE_MARGIN}): at low
	 * rates a window lasts up to this long rather than print no p99.
	 */
	static final double MAX_WINDOW_SECONDS = 10;

	/**
	 * The share of samples a window stretched for a p99 is planned to hold beyond the
	 * 1,000 it needs: the generator's first arrivals come a little after the window opens
	 * and its last ones may fall outside it, so a window planned for exactly 1,000 (334
	 * req/s × 3 s) ended with 998 and printed no p99.
	 */
	static final double P99_SAMPLE_MARGIN = 0.1;

	/**
	 * Seconds of a window at the answer rate (a --quick run's: 1): five of 2 s, where
	 * three of 3 s had been, give the added p50's interval t(4) = 2.78 instead of t(2) =
	 * 4.30 for about the same samples. With three, the windows' ± 8–10 % spread in the
	 * gateway's p50 left the added p50 "not resolved" (± 27–59 %) in two of four default
	 * runs.
	 */
	static final double ANSWER_SECONDS = 2;

	private WindowLengths() {
	}

	/** Seconds of one window at a curve rate (not the answer rate). */
	static double curve(boolean quick, double rate) {
		return quick ? 1 : forP99(rate, Math.min(4, Math.max(2, Math.ceil(CURVE_SAMPLES / rate))));
	}

	/**
	 * Seconds of one window at the answer rate: {@value #ANSWER_SECONDS}, longer where
	 * that would hold too few samples for a p99 (one window per repetition gives the
	 * added p99's interval); a --quick run's one second, whatever it holds.
	 */
	static double answer(boolean quick, double rate) {
		return quick ? 1 : forP99(rate, ANSWER_SECONDS);
	}

	/**
	 * {@code seconds}, or as long as a p99's samples and the margin take at {@code rate}
	 * (at most {@value #MAX_WINDOW_SECONDS} s).
	 */
	private static double forP99(double rate, double seconds) {
		long samples = Math.round(Percentiles.minSamples(99) * (1 + P99_SAMPLE_MARGIN));
		double needed = Math.ceil(samples / rate);
		return Math.max(seconds, Math.min(MAX_WINDOW_SECONDS, needed));
	}

}
