package dev.gatewaylab.runner.jmeter;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.jmeter.JMeter;
import org.apache.jmeter.report.dashboard.ReportGenerator;
import org.apache.jmeter.util.JMeterUtils;

/**
 * JMeter's own HTML dashboard (ReportGenerator, as {@code jmeter -g x.jtl -o dir}) from
 * merged JTLs, one per target, generated side by side on the machine's cores (the run's
 * load is over by then).
 */
public final class Dashboards {

	private static final String HTML_OUTPUT_DIR = "jmeter.reportgenerator.exporter.html.property.output_dir";

	private static final String JSON_OUTPUT_DIR = "jmeter.reportgenerator.exporter.json.property.output_dir";

	private static final String TEMP_DIR = "jmeter.reportgenerator.temp_dir";

	private Dashboards() {
	}

	/**
	 * One dashboard per target under {@code dir/jmeter-dashboard/<target>}, best effort:
	 * returns a warning per dashboard that failed.
	 */
	public static List<String> generate(Path dir, Map<String, List<Path>> jtlsByTarget) {
		List<String> warnings = new ArrayList<>();
		Map<String, List<Path>> todo = new LinkedHashMap<>();
		jtlsByTarget.forEach((target, jtls) -> {
			if (!jtls.isEmpty()) {
				todo.put(target, jtls);
			}
		});
		if (todo.isEmpty()) {
			return warnings;
		}
		ExecutorService pool = Executors
			.newFixedThreadPool(Math.min(todo.size(), Runtime.getRuntime().availableProcessors()));
		try {
			Map<String, Future<?>> running = new LinkedHashMap<>();
			todo.forEach((target, jtls) -> running.put(target, pool.submit(() -> {
				generate(jtls, dir.resolve("jmeter-dashboard").resolve(target));
				return null;
			})));
			running.forEach((target, f) -> {
				try {
					f.get();
				}
				catch (InterruptedException e) {
					Thread.currentThread().interrupt();
					warnings.add("JMeter dashboard for " + target + " failed: interrupted");
				}
				catch (Exception e) {
					Throwable cause = e.getCause() != null ? e.getCause() : e;
					warnings.add("JMeter dashboard for " + target + " failed: " + cause.getMessage());
				}
			});
		}
		finally {
			pool.shutdownNow();
		}
		return warnings;
	}

	/** One dashboard from a target's JTLs, generated in the calling thread. */
	private static void generate(List<Path> jtls, Path outputDir) throws Exception {
		Job job = prepare(jtls, outputDir);
		try {
			job.run();
		}
		finally {
			job.cleanUp();
		}
	}

	/**
	 * Merges the JTLs (side by side with other dashboards) and builds the generator. A
	 * generator reads its configuration (its output and temporary directories among it)
	 * from JMeter's global properties when it is built, so building is serialised;
	 * generating is not.
	 */
	private static Job prepare(List<Path> jtls, Path outputDir) throws Exception {
		Files.createDirectories(outputDir.getParent());
		Path merged = Files.createTempFile(outputDir.getParent(), ".merged-", ".jtl");
		Path temp = Files.createTempDirectory(outputDir.getParent(), ".report-");
		try {
			merge(jtls, merged);
			return new Job(build(merged, outputDir, temp), merged, temp);
		}
		catch (Exception e) {
			Files.deleteIfExists(merged);
			deleteTree(temp);
			throw e;
		}
	}

	private static synchronized ReportGenerator build(Path merged, Path outputDir, Path temp) throws Exception {
		Properties props = JMeterUtils.getJMeterProperties();
		// the global output directory would send every exporter to the last one set
		props.remove(JMeter.JMETER_REPORT_OUTPUT_DIR_PROPERTY);
		props.setProperty(HTML_OUTPUT_DIR, outputDir.toAbsolutePath().toString());
		props.setProperty(JSON_OUTPUT_DIR, outputDir.toAbsolutePath().toString());
		props.setProperty(TEMP_DIR, temp.resolve("work").toAbsolutePath().toString());
		return new ReportGenerator(merged.toAbsolutePath().toString(), null);
	}

	/** A built generator and the files it reads and works in. */
	private record Job(ReportGenerator generator, Path merged, Path temp) {

		void run() throws Exception {
			generator.generate();
		}

		void cleanUp() {
			try {
				Files.deleteIfExists(merged);
				deleteTree(temp);
			}
			catch (IOException e) {
				// best effort: a hidden leftover in the results directory
			}
		}

	}

	private static void deleteTree(Path root) throws IOException {
		if (!Files.exists(root)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(root)) {
			for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
				Files.deleteIfExists(p);
			}
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
