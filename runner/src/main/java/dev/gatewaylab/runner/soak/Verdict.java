package dev.gatewaylab.runner.soak;

import dev.gatewaylab.runner.result.SoakResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Judges a soak: each finding names one drift. A resource drifts when its last reading is
 * above its first by more than {@code maxGrowthPct} percent and by more than a floor (so
 * that one page of RSS, or one connection more at the moment of sampling, is not a leak):
 * heap after GC 2 MiB, RSS 16 MiB, open file descriptors 32, threads 4. The p99 drifts
 * when the last third of the intervals, pooled, is above the first third by more than
 * {@code maxP99DriftPct} percent and more than 2 ms (JMeter's resolution is 1 ms).
 */
final class Verdict {

	static final double HEAP_FLOOR_MIB = 2;
	static final double RSS_FLOOR_MIB = 16;
	static final double FD_FLOOR = 32;
	static final double THREAD_FLOOR = 4;
	static final double P99_FLOOR_MS = 2;

	/** The limits a soak is judged by (percent). */
	record Limits(double maxErrorRatePct, double maxGrowthPct, double maxP99DriftPct) {
	}

	private Verdict() {
	}

	static List<String> findings(List<SoakResult.Sample> samples, SoakResult.Totals totals, Limits limits) {
		List<String> out = new ArrayList<>();
		if (totals.requests() == 0) {
			out.add("no request completed");
			return out;
		}
		if (totals.errorRatePct() > limits.maxErrorRatePct()) {
			out.add(String.format(Locale.ROOT, "error rate %.3f %% (%d of %d) is over %s %%", totals.errorRatePct(),
					totals.errors(), totals.requests(), num(limits.maxErrorRatePct())));
		}
		if (totals.p99LastMs() - totals.p99FirstMs() > P99_FLOOR_MS && totals.p99DriftPct() > limits.maxP99DriftPct()) {
			out.add(String.format(Locale.ROOT,
					"p99 drifted from %s ms (first third) to %s ms (last third): +%.1f %% " + "is over %s %%",
					ms(totals.p99FirstMs()), ms(totals.p99LastMs()), totals.p99DriftPct(),
					num(limits.maxP99DriftPct())));
		}
		if (samples.isEmpty()) {
			return out;
		}
		SoakResult.Sample first = samples.get(0);
		SoakResult.Sample last = samples.get(samples.size() - 1);
		growth("heap after GC", "MiB", first.heapAfterGcMiB(), last.heapAfterGcMiB(), HEAP_FLOOR_MIB, limits, out);
		growth("RSS", "MiB", first.rssMiB(), last.rssMiB(), RSS_FLOOR_MIB, limits, out);
		growth("open file descriptors", "", first.openFds(), last.openFds(), FD_FLOOR, limits, out);
		growth("threads", "", first.threads(), last.threads(), THREAD_FLOOR, limits, out);
		double dropped = last.logEventsDropped() - first.logEventsDropped();
		if (dropped > 0) {
			out.add(String.format(Locale.ROOT, "%.0f log events dropped by the full async log queue during the soak",
					dropped));
		}
		return out;
	}

	/**
	 * Percent change from {@code first} to {@code last}; NaN when either is unknown or
	 * the start is 0.
	 */
	static double growthPct(double first, double last) {
		return known(first) && known(last) && first > 0 ? 100.0 * (last - first) / first : Double.NaN;
	}

	private static void growth(String what, String unit, double first, double last, double floor, Limits limits,
			List<String> out) {
		double pct = growthPct(first, last);
		if (!Double.isNaN(pct) && last - first > floor && pct > limits.maxGrowthPct()) {
			String u = unit.isEmpty() ? "" : " " + unit;
			out.add(String.format(Locale.ROOT, "%s grew from %s%s to %s%s: +%.1f %% is over %s %%", what, num(first), u,
					num(last), u, pct, num(limits.maxGrowthPct())));
		}
	}

	private static boolean known(double v) {
		return !Double.isNaN(v) && v >= 0;
	}

	static String num(double v) {
		return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v);
	}

	/** A latency in ms with two significant digits: 0.41, 4.1, 41. */
	static String ms(double ms) {
		return String.format(Locale.ROOT, ms < 1 ? "%.2f" : ms < 10 ? "%.1f" : "%.0f", ms);
	}

}
