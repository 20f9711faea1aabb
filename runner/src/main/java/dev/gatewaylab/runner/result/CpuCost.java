package dev.gatewaylab.runner.result;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * CPU microseconds one process spent per request served, over the measured repetitions:
 * mean with its 95 % confidence interval and the value of each repetition (run.json
 * "cpu_us_per_request").
 */
public record CpuCost(double mean, double ci95, double[] reps) {

	@JsonProperty("ci95_percent")
	public double ci95Percent() {
		return mean == 0 ? Double.NaN : 100 * ci95 / mean;
	}
}
