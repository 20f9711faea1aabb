package dev.gatewaylab.lab.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Everything a bench run produced; serialised as run.json. */
@JsonPropertyOrder({"settings", "environment", "targets", "repetitions", "comparisons", "warnings", "notes"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunResult(Map<String, Object> settings, Map<String, Object> environment, List<TargetResult> targets,
                        List<RepResult> repetitions, List<String> comparisons, List<String> warnings,
                        List<String> notes) {

    public void write(Path file) throws IOException {
        Json.write(file, this);
    }

    public static RunResult read(Path file) throws IOException {
        return Json.read(file, RunResult.class);
    }

    public RunResult withWarningsAndNotes(List<String> newWarnings, List<String> newNotes) {
        return new RunResult(settings, environment, targets, repetitions, comparisons, newWarnings, newNotes);
    }
}
