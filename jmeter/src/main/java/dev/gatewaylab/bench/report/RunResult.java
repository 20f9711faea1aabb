package dev.gatewaylab.bench.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
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

    public static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    public void write(Path file) throws IOException {
        JSON.writeValue(file.toFile(), this);
    }

    public static RunResult read(Path file) throws IOException {
        return JSON.readValue(file.toFile(), RunResult.class);
    }
}
