package dev.gatewaylab.runner.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One measured repetition of one target. {@code calibrationMs}: the machine's speed just
 * before it ({@code MachineSpeed}: CPU ms of a fixed loop; null when not measured).
 * {@code p99Ms}: null when the repetition holds too few samples for a p99
 * ({@code Percentiles}). {@code segments}: for an arm of a switchback run, the [start,
 * end) epoch milliseconds during which that arm was in force (null otherwise).
 */
@JsonPropertyOrder({ "target", "rep", "samples", "errors", "tps", "avg_ms", "p99_ms", "window_s", "jtl",
		"calibration_ms", "segments" })
public record RepResult(String target, int rep, long samples, long errors, double tps,
		@JsonProperty("avg_ms") double avgMs, @JsonProperty("p99_ms") Long p99Ms,
		@JsonProperty("window_s") double windowSeconds, String jtl,
		@JsonProperty("calibration_ms") @JsonInclude(JsonInclude.Include.NON_NULL) Double calibrationMs,
		@JsonInclude(JsonInclude.Include.NON_NULL) long[][] segments) {

	public RepResult(String target, int rep, long samples, long errors, double tps, double avgMs, Long p99Ms,
			double windowSeconds, String jtl) {
		this(target, rep, samples, errors, tps, avgMs, p99Ms, windowSeconds, jtl, null, null);
	}
}
