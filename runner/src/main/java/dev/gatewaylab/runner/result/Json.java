package dev.gatewaylab.runner.result;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The one JSON mapping of the result files (run.json, sweep.json): indented, tolerant of
 * unknown fields.
 */
public final class Json {

	private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
		.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

	private Json() {
	}

	public static void write(Path file, Object value) throws IOException {
		MAPPER.writeValue(file.toFile(), value);
	}

	public static <T> T read(Path file, Class<T> type) throws IOException {
		return MAPPER.readValue(file.toFile(), type);
	}

}
