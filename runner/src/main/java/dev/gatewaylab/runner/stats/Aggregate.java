package dev.gatewaylab.runner.stats;

import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Aggregates samples: count, errors by type, latency histogram (ms), time window. Not
 * thread-safe.
 */
public final class Aggregate {

	private final Histogram histogram = new Histogram(3_600_000L, 3);

	private final Map<String, Long> errors = new TreeMap<>();

	private long samples;

	private long failures;

	private long sumMs;

	private long firstStart = Long.MAX_VALUE;

	private long lastEnd = Long.MIN_VALUE;

	private double fixedWindowSeconds = Double.NaN;

	/**
	 * JTL time stamps are sample start times (the runner sets
	 * {@code sampleresult.timestamp.start=true}).
	 */
	public void add(JtlSample s) {
		samples++;
		long elapsed = Math.max(0, s.elapsed());
		histogram.recordValue(Math.min(elapsed, histogram.getHighestTrackableValue()));
		sumMs += elapsed;
		firstStart = Math.min(firstStart, s.timeStamp());
		lastEnd = Math.max(lastEnd, s.timeStamp() + elapsed);
		if (!s.success()) {
			failures++;
			errors.merge(s.errorType(), 1L, Long::sum);
		}
	}

	public void addAll(Aggregate other) {
		fixedWindowSeconds = samples == 0 ? other.fixedWindowSeconds : fixedWindowSeconds + other.fixedWindowSeconds;
		samples += other.samples;
		failures += other.failures;
		sumMs += other.sumMs;
		histogram.add(other.histogram);
		firstStart = Math.min(firstStart, other.firstStart);
		lastEnd = Math.max(lastEnd, other.lastEnd);
		other.errors.forEach((k, v) -> errors.merge(k, v, Long::sum));
	}

	public long samples() {
		return samples;
	}

	public long failures() {
		return failures;
	}

	public Map<String, Long> errors() {
		return errors;
	}

	public double avgMs() {
		return samples == 0 ? Double.NaN : (double) sumMs / samples;
	}

	public long minMs() {
		return samples == 0 ? 0 : histogram.getMinValue();
	}

	public long maxMs() {
		return samples == 0 ? 0 : histogram.getMaxValue();
	}

	public long percentileMs(double p) {
		return samples == 0 ? 0 : histogram.getValueAtPercentile(p);
	}

	/**
	 * The percentile in whole ms, or null when the aggregate holds too few samples to
	 * quote it ({@link Percentiles}): what reports and run.json carry.
	 */
	public Long quotedMs(double p) {
		return Percentiles.supported(samples, p) ? percentileMs(p) : null;
	}

	public double successRate() {
		return samples == 0 ? Double.NaN : 100.0 * (samples - failures) / samples;
	}

	/**
	 * Window from the first sample start to the last sample end, seconds — or the one set
	 * by {@link #windowSeconds(double)}.
	 */
	public double windowSeconds() {
		if (!Double.isNaN(fixedWindowSeconds)) {
			return fixedWindowSeconds;
		}
		return samples == 0 ? 0 : Math.max(1, lastEnd - firstStart) / 1000.0;
	}

	/**
	 * Sets the window explicitly: e.g. the sum of a switchback arm's segments, which are
	 * not one stretch of time.
	 */
	public void windowSeconds(double seconds) {
		this.fixedWindowSeconds = seconds;
	}

	public double tps() {
		return samples == 0 ? 0 : samples / windowSeconds();
	}

}
