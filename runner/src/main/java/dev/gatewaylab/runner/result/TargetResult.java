package dev.gatewaylab.runner.result;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;

/**
 * Aggregate of one target over all measured repetitions (the per-target object of
 * run.json). Percentiles in whole ms (JMeter's resolution), null where the samples are
 * too few to quote them ({@code Percentiles}); {@code p99Reps}: the p99 of each
 * repetition that holds enough samples for one.
 */
@JsonPropertyOrder({ "name", "plan", "url", "samples", "tps", "tps_ci95", "avg_ms", "min_ms", "max_ms", "p50_ms",
		"p90_ms", "p99_ms", "success_rate", "errors", "tps_reps", "p99_reps", "tps_median", "cpu_us_per_request",
		"warmup", "open_model", "resources" })
public record TargetResult(String name, String plan, String url, long samples, double tps,
		@JsonProperty("tps_ci95") double tpsCi95, @JsonProperty("avg_ms") double avgMs,
		@JsonProperty("min_ms") long minMs, @JsonProperty("max_ms") long maxMs, @JsonProperty("p50_ms") Long p50Ms,
		@JsonProperty("p90_ms") Long p90Ms, @JsonProperty("p99_ms") Long p99Ms,
		@JsonProperty("success_rate") double successRate, Map<String, Long> errors,
		@JsonProperty("tps_reps") double[] tpsReps, @JsonProperty("p99_reps") double[] p99Reps,
		Map<String, Resource> resources, @JsonProperty("tps_median") double tpsMedian,
		@JsonProperty("cpu_us_per_request") Map<String, CpuCost> cpuUsPerRequest, WarmupResult warmup,
		@JsonProperty("open_model") Latency openModel, @JsonIgnore double[] timeline) {

	/**
	 * Mean CPU % (100 = one core) and peak RSS (MiB) of a process while this target was
	 * measured.
	 */
	public record Resource(@JsonProperty("cpu_percent") Double cpuPercent, @JsonProperty("rss_mib") Double rssMiB,
			String note) {
	}
}
