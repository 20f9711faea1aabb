package dev.gatewaylab.runner.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * Mean response time and sample count per 1 s bucket, relative to the first sample of a
 * run.
 */
public final class Timeline {

	private final List<long[]> buckets = new ArrayList<>(); // [sumMs, count]

	private long origin = Long.MIN_VALUE;

	public void add(JtlSample s) {
		if (origin == Long.MIN_VALUE) {
			origin = s.timeStamp();
		}
		int second = (int) Math.max(0, (s.timeStamp() - origin) / 1000);
		while (buckets.size() <= second) {
			buckets.add(new long[2]);
		}
		buckets.get(second)[0] += s.elapsed();
		buckets.get(second)[1]++;
	}

	/** Mean latency (ms) per second; NaN for empty seconds. */
	public double[] meanMs() {
		double[] out = new double[buckets.size()];
		for (int i = 0; i < out.length; i++) {
			long[] b = buckets.get(i);
			out[i] = b[1] == 0 ? Double.NaN : (double) b[0] / b[1];
		}
		return out;
	}

}
