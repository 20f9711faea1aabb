package dev.gatewaylab.lab.result;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** One measured repetition of one target. */
@JsonPropertyOrder({"target", "rep", "samples", "errors", "tps", "avg_ms", "p99_ms", "window_s", "jtl"})
public record RepResult(String target, int rep, long samples, long errors, double tps,
                        @JsonProperty("avg_ms") double avgMs, @JsonProperty("p99_ms") long p99Ms,
                        @JsonProperty("window_s") double windowSeconds, String jtl) {
}
