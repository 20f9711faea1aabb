package dev.gatewaylab.runner.result;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;

/**
 * One remote load engine of a run (run.json "engines"): the measured samples it sent, in
 * total and per target (closed-model repetitions, as the targets' {@code samples}), its
 * share of them, and its process CPU (100 = one core) over the measured repetitions when
 * it could be read (an engine started by ./lab engine on this machine), and its clock's
 * offset from the runner's (ms, engine − runner, estimated from its samples:
 * {@code ClockOffsets}; null when no sample came from it).
 */
@JsonPropertyOrder({ "engine", "samples", "share_percent", "samples_per_target", "cpu_percent", "clock_offset_ms",
		"note" })
public record EngineResult(String engine, long samples, @JsonProperty("share_percent") double sharePercent,
		@JsonProperty("samples_per_target") Map<String, Long> samplesPerTarget,
		@JsonProperty("cpu_percent") Double cpuPercent, @JsonProperty("clock_offset_ms") Long clockOffsetMs,
		String note) {
}
