package dev.gatewaylab.runner.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything a bench run produced; serialised as run.json ({@code engines}: remote
 * engines only, else absent).
 */
@JsonPropertyOrder({ "answer", "settings", "environment", "targets", "ratios", "repetitions", "engines", "comparisons",
		"warnings", "notes" })
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunResult(String answer, Map<String, Object> settings, Map<String, Object> environment,
		List<TargetResult> targets, List<Ratio> ratios, List<RepResult> repetitions, List<String> comparisons,
		List<String> warnings, List<String> notes, List<EngineResult> engines) {

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
		return new RunResult(answer, settings, environment, targets, ratios, repetitions, comparisons, newWarnings,
				newNotes, engines);
	}
}
