package dev.gatewaylab.runner.result;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * How a target's warm-up went (run.json "warmup"): how long, the JIT compile time of the
 * JVMs serving it before and after (summed, ms; null when unknown), their GC pauses
 * meanwhile, and why it ended.
 */
@JsonPropertyOrder({ "seconds", "windows", "steady", "compile_ms_before", "compile_ms_after", "compile_ms",
		"gc_pause_ms", "reason" })
public record WarmupResult(double seconds, int windows, boolean steady,
		@JsonProperty("compile_ms_before") Double compileMsBefore,
		@JsonProperty("compile_ms_after") Double compileMsAfter, @JsonProperty("gc_pause_ms") Double gcPauseMs,
		String reason) {

	/** JIT compile time spent during the warm-up (ms), null when unknown. */
	@JsonProperty("compile_ms")
	public Double compileMs() {
		return compileMsBefore == null || compileMsAfter == null ? null : compileMsAfter - compileMsBefore;
	}
}
