package dev.gatewaylab.runner.result;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One warm-up window (run.json "warmup"."window_log"): its length and throughput, the
 * largest JIT compile-time growth of a JVM since the target's previous window (ms, null
 * when no JVM's could be read) with that JVM, the wall time that growth is measured over,
 * and what the steady-state rule said after it: {@code compiling} (a JVM compiled 2 % of
 * that time or more), {@code tps_moving} (this window's TPS more than 5 % above the best
 * earlier window's; without JVM metrics, also more than 5 % apart from the previous
 * window's), both false when it judged the target warm or did not judge.
 */
@JsonPropertyOrder({ "seconds", "tps", "compile_ms", "busiest_jvm", "since_s", "compiling", "tps_moving" })
public record WarmupWindow(double seconds, double tps, @JsonProperty("compile_ms") Double compileMs,
		@JsonProperty("busiest_jvm") String busiestJvm, @JsonProperty("since_s") double sinceSeconds, boolean compiling,
		@JsonProperty("tps_moving") boolean tpsMoving) {
}
