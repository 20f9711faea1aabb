package dev.gatewaylab.runner.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Results directories: created up front, marked INCOMPLETE until the report is written.
 */
public final class Runs {

	public static final String INCOMPLETE = "INCOMPLETE";

	private Runs() {
	}

	public static Path createRunDir(Path root) {
		String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
		try {
			Files.createDirectories(root);
			Path dir = root.resolve(stamp);
			for (int i = 2; Files.exists(dir); i++) {
				dir = root.resolve(stamp + "-" + i);
			}
			Files.createDirectories(dir.resolve("raw"));
			Path probe = Files.createTempFile(dir, ".write-test", ".tmp");
			Files.delete(probe);
			return dir;
		}
		catch (IOException | SecurityException e) {
			throw new LabException("results directory " + root + " is not writable (" + e.getMessage() + ")",
					"pass --results DIR with a writable directory or fix its permissions");
		}
	}

	public static void markIncomplete(Path dir, String why) {
		try {
			Files.writeString(dir.resolve(INCOMPLETE),
					why + System.lineSeparator()
							+ "This directory does not hold a complete report; do not use its numbers."
							+ System.lineSeparator());
		}
		catch (IOException e) {
			// best effort: the directory may be gone
		}
	}

	public static void markComplete(Path dir) throws IOException {
		Files.deleteIfExists(dir.resolve(INCOMPLETE));
	}

}
