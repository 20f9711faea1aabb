package dev.gatewaylab.runner.result;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a soak produced; serialised as soak.json. {@code findings} empty = stable (exit
 * 0), else each names a drift (exit 3). Process figures are NaN / -1 when they could not
 * be read (then {@code warnings} says why).
 */
public record SoakResult(Map<String, Object> settings, @JsonProperty("max_tps") double maxTps, double rate,
		@JsonProperty("warmup") WarmupResult warmup, List<Sample> samples, Totals totals, List<String> findings,
		List<String> warnings) {

	/**
	 * One sampling interval: the traffic completed in it and the soaked process at its
	 * end.
	 */
	public record Sample(int index, @JsonProperty("end_s") double endSeconds, long requests, long errors, double tps,
			@JsonProperty("p99_ms") double p99Ms, @JsonProperty("rss_mib") double rssMiB,
			@JsonProperty("heap_after_gc_mib") double heapAfterGcMiB, @JsonProperty("open_fds") long openFds,
			long threads, @JsonProperty("log_events_dropped") double logEventsDropped) {
	}

	/**
	 * The whole soak: requests, errors, error rate (%), and p99 of the first and the last
	 * third of the intervals pooled (the p99 drift compares them).
	 */
	public record Totals(long requests, long errors, @JsonProperty("error_rate_pct") double errorRatePct,
			@JsonProperty("p99_first_third_ms") double p99FirstMs, @JsonProperty("p99_last_third_ms") double p99LastMs,
			@JsonProperty("p99_drift_pct") double p99DriftPct) {
	}

	public boolean stable() {
		return findings.isEmpty();
	}

	public void write(Path file) throws IOException {
		Json.write(file, this);
	}
}
