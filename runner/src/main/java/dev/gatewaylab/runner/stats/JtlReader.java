package dev.gatewaylab.runner.stats;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.jmeter.save.CSVSaveService;

/**
 * Streams a JMeter CSV result file (with header line) using JMeter's own CSV splitter.
 */
public final class JtlReader {

	private JtlReader() {
	}

	public static long read(Path jtl, Consumer<JtlSample> consumer) throws IOException {
		long rows = 0;
		try (BufferedReader in = Files.newBufferedReader(jtl, StandardCharsets.UTF_8)) {
			String[] header = CSVSaveService.csvReadFile(in, ',');
			if (header.length == 0) {
				return 0;
			}
			Map<String, Integer> idx = new HashMap<>();
			for (int i = 0; i < header.length; i++) {
				idx.put(header[i].trim().toLowerCase(Locale.ROOT), i);
			}
			for (String required : new String[] { "timestamp", "elapsed", "success" }) {
				if (!idx.containsKey(required)) {
					throw new IOException(jtl + ": not a JMeter CSV with a header line (no '" + required + "' column)");
				}
			}
			String[] row;
			while ((row = CSVSaveService.csvReadFile(in, ',')).length > 0) {
				if (row.length == 1 && row[0].isEmpty()) {
					continue;
				}
				consumer.accept(new JtlSample(Long.parseLong(get(row, idx, "timestamp")),
						Long.parseLong(get(row, idx, "elapsed")), get(row, idx, "label"), get(row, idx, "responsecode"),
						get(row, idx, "responsemessage"), Boolean.parseBoolean(get(row, idx, "success")),
						get(row, idx, "failuremessage"), parseInt(get(row, idx, "allthreads")),
						get(row, idx, "threadname")));
				rows++;
			}
		}
		return rows;
	}

	private static String get(String[] row, Map<String, Integer> idx, String name) {
		Integer i = idx.get(name);
		return i == null || i >= row.length ? "" : row[i];
	}

	private static int parseInt(String s) {
		try {
			return s.isEmpty() ? 0 : Integer.parseInt(s);
		}
		catch (NumberFormatException e) {
			return 0;
		}
	}

}
