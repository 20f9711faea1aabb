package dev.gatewaylab.runner.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a sweep produced; serialised as sweep.json ({@code engines}: remote engines only,
 * else absent).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SweepResult(Map<String, Object> settings, Map<String, WarmupResult> warmup, List<Point> points,
		List<String> warnings, List<EngineResult> engines) {

	/**
	 * One concurrency level of one target. From the latency generator (closed model): the
	 * ms figures rounded from its µs ones, and
	 * {@code p50Us}/{@code p99Us}/{@code p999Us}, each null where the level had too few
	 * samples for it (p50 from 20, p99 from 1,000, p99.9 from 10,000:
	 * {@link dev.gatewaylab.runner.stats.Percentiles}); from JMeter (whole ms): those
	 * three null. {@code p99Ms} follows the same rule for either: null (JSON
	 * {@code null}) below 1,000 samples.
	 */
	public record Point(String target, int threads, long samples, double tps, @JsonProperty("avg_ms") double avgMs,
			@JsonProperty("min_ms") long minMs, @JsonProperty("max_ms") long maxMs, @JsonProperty("p99_ms") Long p99Ms,
			@JsonProperty("success_rate") double successRate, @JsonProperty("p50_us") Double p50Us,
			@JsonProperty("p99_us") Double p99Us, @JsonProperty("p999_us") Double p999Us,
			@JsonProperty("engine") String measuredBy) {

		/** A level measured by JMeter. */
		public Point(String target, int threads, long samples, double tps, double avgMs, long minMs, long maxMs,
				Long p99Ms, double successRate) {
			this(target, threads, samples, tps, avgMs, minMs, maxMs, p99Ms, successRate, null, null, null, "JMeter");
		}

	}

	public void write(Path file) throws IOException {
		Json.write(file, this);
	}
}
