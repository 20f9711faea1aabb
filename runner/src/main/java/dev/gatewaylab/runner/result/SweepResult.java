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

	/** One concurrency level of one target. */
	public record Point(String target, int threads, long samples, double tps, @JsonProperty("avg_ms") double avgMs,
			@JsonProperty("min_ms") long minMs, @JsonProperty("max_ms") long maxMs, @JsonProperty("p99_ms") long p99Ms,
			@JsonProperty("success_rate") double successRate) {
	}

	public void write(Path file) throws IOException {
		Json.write(file, this);
	}
}
