package dev.gatewaylab.runner.soak;

import dev.gatewaylab.runner.result.SoakResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import dev.gatewaylab.runner.latency.OpenLoad;
import dev.gatewaylab.runner.stats.Percentiles;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.HdrHistogram.Recorder;
import org.apache.jmeter.samplers.SampleResult;

/**
 * The soak's samples cut into intervals: a {@link Recorder} of response times in µs —
 * from the latency generator's windows (one per interval, ns rounded down to µs) or from
 * JMeter's samples (whole ms) for a plan without a request line — and an error count that
 * {@link #cut} hands over, with a reading of the soaked process, as one
 * {@link SoakResult.Sample}.
 */
final class Intervals {

	private static final long MAX_US = 3_600_000_000L;

	private final Recorder recorder = new Recorder(MAX_US, 3);

	private final LongAdder errors = new LongAdder();

	private final List<Histogram> histograms = new ArrayList<>();

	private final List<Long> errorCounts = new ArrayList<>();

	private final List<SoakResult.Sample> samples = new ArrayList<>();

	private final List<String> problems = new ArrayList<>();

	private long startNanos;

	private long lastCutNanos;

	synchronized void begin(long nanos) {
		startNanos = nanos;
		lastCutNanos = nanos;
		recorder.reset();
		errors.reset();
	}

	/** Called by JMeter's threads for every sample (whole ms). */
	void record(SampleResult r) {
		recorder.recordValue(Math.min(Math.max(0, r.getTime()) * 1000, MAX_US));
		if (!r.isSuccessful()) {
			errors.increment();
		}
	}

	/** One window of the latency generator (ns): its response times and failures. */
	void record(OpenLoad.Window w) {
		for (HistogramIterationValue v : w.histogram().recordedValues()) {
			recorder.recordValueWithCount(Math.min(v.getValueIteratedTo() / 1000, MAX_US),
					v.getCountAtValueIteratedTo());
		}
		errors.add(w.failures());
	}

	/** Ends the current interval now and reads the process. */
	synchronized void cut(ProcessProbe probe) {
		long endNanos = System.nanoTime();
		try {
			Histogram h = recorder.getIntervalHistogram();
			long failed = errors.sumThenReset();
			double seconds = Math.max(1e-3, (endNanos - lastCutNanos) / 1e9);
			lastCutNanos = System.nanoTime();
			ProcessProbe.Reading p = probe.read();
			histograms.add(h);
			errorCounts.add(failed);
			long n = h.getTotalCount();
			samples.add(
					new SoakResult.Sample(samples.size() + 1, (lastCutNanos - startNanos) / 1e9, n, failed, n / seconds,
							p99(h), p.rssMiB(), p.heapAfterGcMiB(), p.openFds(), p.threads(), p.logEventsDropped()));
		}
		catch (RuntimeException e) {
			problems.add("an interval could not be sampled: " + e);
		}
	}

	synchronized List<SoakResult.Sample> samples() {
		return List.copyOf(samples);
	}

	synchronized List<String> problems() {
		return List.copyOf(problems);
	}

	/**
	 * Totals, and the p99 of the first and the last third of the intervals (at least one
	 * each) pooled.
	 */
	synchronized SoakResult.Totals totals() {
		return totals(histograms, errorCounts);
	}

	static SoakResult.Totals totals(List<Histogram> histograms, List<Long> errorCounts) {
		long requests = histograms.stream().mapToLong(Histogram::getTotalCount).sum();
		long failed = errorCounts.stream().mapToLong(Long::longValue).sum();
		int n = histograms.size();
		int third = Math.max(1, n / 3);
		double first = p99(histograms.subList(0, Math.min(third, n)));
		double last = p99(histograms.subList(Math.max(0, n - third), n));
		double drift = Double.isNaN(first) || Double.isNaN(last) ? Double.NaN
				: first > 0 ? 100.0 * (last - first) / first : 0;
		return new SoakResult.Totals(requests, failed, requests == 0 ? 0 : 100.0 * failed / requests, first, last,
				drift);
	}

	/**
	 * The pooled p99 in ms (the histograms hold µs); NaN below the 1,000 samples a p99
	 * needs ({@link Percentiles}).
	 */
	private static double p99(List<Histogram> hs) {
		Histogram pooled = new Histogram(MAX_US, 3);
		hs.forEach(pooled::add);
		return p99(pooled);
	}

	private static double p99(Histogram h) {
		Double ms = Percentiles.of(h, 99, 1000);
		return ms == null ? Double.NaN : ms;
	}

}
