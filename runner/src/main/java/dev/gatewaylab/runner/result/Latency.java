package dev.gatewaylab.runner.result;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * Latency at equal load (run.json "open_model"): the open-model phase, Poisson arrivals
 * at {@code rate} req/s, every target at the same rate. Percentiles in whole ms (JMeter's
 * resolution); the mean is exact.
 */
@JsonPropertyOrder({ "rate", "achieved_rate", "samples", "success_rate", "mean_ms", "p50_ms", "p90_ms", "p99_ms",
		"p999_ms", "max_ms" })
public record Latency(double rate, @JsonProperty("achieved_rate") double achievedRate, long samples,
		@JsonProperty("success_rate") double successRate, @JsonProperty("mean_ms") double meanMs,
		@JsonProperty("p50_ms") long p50Ms, @JsonProperty("p90_ms") long p90Ms, @JsonProperty("p99_ms") long p99Ms,
		@JsonProperty("p999_ms") long p999Ms, @JsonProperty("max_ms") long maxMs) {
}
