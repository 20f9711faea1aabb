package dev.gatewaylab.runner.result;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * Latency at equal load (run.json "open_model"): the open-model phase, Poisson arrivals
 * at {@code rate} req/s, every target at the same rate. Percentiles in whole ms (JMeter's
 * resolution), null where the samples are too few to quote them ({@code Percentiles});
 * the mean is exact.
 */
@JsonPropertyOrder({ "rate", "achieved_rate", "samples", "success_rate", "mean_ms", "p50_ms", "p90_ms", "p99_ms",
		"p999_ms", "max_ms" })
public record Latency(double rate, @JsonProperty("achieved_rate") double achievedRate, long samples,
		@JsonProperty("success_rate") double successRate, @JsonProperty("mean_ms") double meanMs,
		@JsonProperty("p50_ms") Long p50Ms, @JsonProperty("p90_ms") Long p90Ms, @JsonProperty("p99_ms") Long p99Ms,
		@JsonProperty("p999_ms") Long p999Ms, @JsonProperty("max_ms") long maxMs) {
}
