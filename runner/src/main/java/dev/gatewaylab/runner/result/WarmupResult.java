package dev.gatewaylab.runner.result;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How a target's warm-up went (run.json "warmup"): how long, the JIT compile time of the
 * JVMs serving it before and after (summed, ms; null when unknown), their GC pauses
 * meanwhile, why it ended, and each window.
 */
@JsonPropertyOrder({ "seconds", "windows", "steady", "compile_ms_before", "compile_ms_after", "compile_ms",
		"gc_pause_ms", "reason", "window_log" })
public record WarmupResult(double seconds, int windows, boolean steady,
		@JsonProperty("compile_ms_before") Double compileMsBefore,
		@JsonProperty("compile_ms_after") Double compileMsAfter, @JsonProperty("gc_pause_ms") Double gcPauseMs,
		String reason, @JsonProperty("window_log") List<WarmupWindow> windowLog) {

	public WarmupResult {
		windowLog = windowLog == null ? List.of() : List.copyOf(windowLog);
	}

	public WarmupResult(double seconds, int windows, boolean steady, Double compileMsBefore, Double compileMsAfter,
			Double gcPauseMs, String reason) {
		this(seconds, windows, steady, compileMsBefore, compileMsAfter, gcPauseMs, reason, List.of());
	}

	/**
	 * What kept the target warming: how many windows were judged still compiling, per JVM
	 * that compiled most, and how many had throughput still moving.
	 */
	public String heldBack() {
		Map<String, Integer> compiling = new TreeMap<>();
		int moving = 0;
		for (WarmupWindow w : windowLog) {
			if (w.compiling()) {
				compiling.merge(String.valueOf(w.busiestJvm()), 1, Integer::sum);
			}
			moving += w.tpsMoving() ? 1 : 0;
		}
		int compiled = compiling.values().stream().mapToInt(Integer::intValue).sum();
		if (compiled == 0 && moving == 0) {
			return "";
		}
		List<String> parts = new ArrayList<>();
		if (compiled > 0) {
			parts
				.add("still compiling after " + compiled + " window(s) ("
						+ String.join(", ",
								compiling.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList())
						+ ")");
		}
		if (moving > 0) {
			parts.add("throughput still moving after " + moving);
		}
		return String.join("; ", parts);
	}

	/** JIT compile time spent during the warm-up (ms), null when unknown. */
	@JsonProperty("compile_ms")
	public Double compileMs() {
		return compileMsBefore == null || compileMsAfter == null ? null : compileMsAfter - compileMsBefore;
	}
}
