package dev.gatewaylab.runner.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything a bench run produced; serialised as run.json ({@code engines}: remote
 * engines only, else absent).
 */
@JsonPropertyOrder({ "status", "invalid_because", "answer", "settings", "environment", "targets", "ratios", "cpu_chain",
		"cpu_split", "repetitions", "engines", "comparisons", "warnings", "notes", "latency" })
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunResult(String status, @JsonProperty("invalid_because") List<String> invalidBecause, String answer,
		Map<String, Object> settings, Map<String, Object> environment, List<TargetResult> targets, List<Ratio> ratios,
		List<RepResult> repetitions, List<String> comparisons, List<String> warnings, List<String> notes,
		List<EngineResult> engines, LatencyResult latency, @JsonProperty("cpu_split") CpuSplit cpuSplit,
		@JsonProperty("cpu_chain") CpuChain cpuChain) {

	/** A run whose figures can carry an answer. */
	public static final String VALID = "valid";

	/**
	 * A run that cannot support an answer (a target under the success threshold, JMeter
	 * or the latency generator produced nothing): no answer sentence, exit 3.
	 */
	public static final String INVALID = "INVALID";

	public boolean valid() {
		return !INVALID.equals(status);
	}

	/**
	 * A TPS ratio between two targets from their interleaved repetitions (rep i of one
	 * over rep i of the other): mean with its 95 % confidence interval, e.g. gateway ÷
	 * direct.
	 */
	public record Ratio(String of, String to, double mean, double ci95, double[] reps) {
	}

	public void write(Path file) throws IOException {
		Json.write(file, this);
	}

	public static RunResult read(Path file) throws IOException {
		return Json.read(file, RunResult.class);
	}

	public RunResult withWarningsAndNotes(List<String> newWarnings, List<String> newNotes) {
		return new RunResult(status, invalidBecause, answer, settings, environment, targets, ratios, repetitions,
				comparisons, newWarnings, newNotes, engines, latency, cpuSplit, cpuChain);
	}
}
