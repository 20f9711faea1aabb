package dev.gatewaylab.runner.jmeter;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.jmeter.JMeter;
import org.apache.jmeter.report.dashboard.ReportGenerator;
import org.apache.jmeter.util.JMeterUtils;

/**
 * JMeter's own HTML dashboard (ReportGenerator, as {@code jmeter -g x.jtl -o dir}) from
 * merged JTLs.
 */
public final class Dashboards {

	private Dashboards() {
	}

	/**
	 * One dashboard per target under {@code dir/jmeter-dashboard/<target>}, best effort:
	 * returns a warning per dashboard that failed.
	 */
	public static List<String> generate(Path dir, Map<String, List<Path>> jtlsByTarget) {
		List<String> warnings = new java.util.ArrayList<>();
		jtlsByTarget.forEach((target, jtls) -> {
			try {
				generate(jtls, dir.resolve("jmeter-dashboard").resolve(target));
			}
			catch (Exception e) {
				warnings.add("JMeter dashboard for " + target + " failed: " + e.getMessage());
			}
		});
		return warnings;
	}

	public static synchronized void generate(List<Path> jtls, Path outputDir) throws Exception {
		if (jtls.isEmpty()) {
			return;
		}
		Files.createDirectories(outputDir.getParent());
		Path merged = Files.createTempFile(outputDir.getParent(), ".merged-", ".jtl");
		try {
			merge(jtls, merged);
			JMeterUtils.setProperty(JMeter.JMETER_REPORT_OUTPUT_DIR_PROPERTY, outputDir.toAbsolutePath().toString());
			new ReportGenerator(merged.toAbsolutePath().toString(), null).generate();
		}
		finally {
			Files.deleteIfExists(merged);
		}
	}

	/** Concatenates CSV JTLs keeping the first header line only. */
	static void merge(List<Path> jtls, Path merged) throws IOException {
		try (BufferedWriter w = Files.newBufferedWriter(merged, StandardCharsets.UTF_8)) {
			boolean headerWritten = false;
			for (Path jtl : jtls) {
				try (BufferedReader r = Files.newBufferedReader(jtl, StandardCharsets.UTF_8)) {
					String header = r.readLine();
					if (header == null) {
						continue;
					}
					if (!headerWritten) {
						w.write(header);
						w.newLine();
						headerWritten = true;
					}
					r.transferTo(w);
				}
			}
		}
	}

}
