package dev.gatewaylab.runner.latency;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * The latency generator's windows of one target as an HdrHistogram interval log
 * ({@code .hlog}): one interval per window, its response times in nanoseconds, tagged
 * with what the window measured (e.g. {@code rate-1378}), so that any percentile of any
 * window or set of windows can be read again after the run — with HdrHistogram's
 * {@code HistogramLogProcessor} ({@code -tag rate-1378}; it prints ms), or any reader of
 * the format. The header is written with the first window, whose start is the log's base
 * time. Best effort: a log that cannot be written costs the run nothing but itself
 * ({@link #problem()} says why), so a long run is never lost to its raw data.
 */
public final class HistogramLog implements AutoCloseable {

	/** Values are ns; the log's max column and its processor's output are in ms. */
	private static final double NANOS_PER_MS = 1_000_000.0;

	private final Path file;

	private final PrintStream out;

	private final HistogramLogWriter writer;

	private final String comment;

	private boolean started;

	private String problem;

	private HistogramLog(Path file, OutputStream out, String comment, String problem) {
		this.file = file;
		this.out = out == null ? null : new PrintStream(out, false, StandardCharsets.UTF_8);
		this.writer = this.out == null ? null : new HistogramLogWriter(this.out);
		this.comment = comment;
		this.problem = problem;
	}

	/**
	 * A new log at {@code file} (replaced if present); {@code comment} heads it. When the
	 * file cannot be created, a log that writes nothing and says why.
	 */
	public static HistogramLog create(Path file, String comment) {
		try {
			return new HistogramLog(file, Files.newOutputStream(file), comment, null);
		}
		catch (IOException | RuntimeException e) {
			return new HistogramLog(file, null, comment, reason(file, e));
		}
	}

	/**
	 * Appends a window as one interval tagged {@code tag} (letters, digits, {@code .} and
	 * {@code -}; null: untagged, the intervals {@code HistogramLogProcessor} reads
	 * without {@code -tag}); a window that never started (no time stamp) is left out.
	 */
	public void append(OpenLoad.Window window, String tag) {
		if (tag != null && !tag.matches("[A-Za-z0-9.-]+")) {
			throw new IllegalArgumentException("a tag is letters, digits, '.' and '-', not '" + tag + "'");
		}
		Histogram h = window.histogram();
		if (writer == null || h.getStartTimeStamp() <= 0) {
			return;
		}
		if (!started) {
			writer.outputComment(comment);
			writer.outputLogFormatVersion();
			writer.outputStartTime(h.getStartTimeStamp());
			writer.setBaseTime(h.getStartTimeStamp());
			writer.outputBaseTime(h.getStartTimeStamp());
			writer.outputLegend();
			started = true;
		}
		// the window's own histogram stays untagged:
		// the copy carries the tag, the line the times
		Histogram tagged = h.copy();
		tagged.setTag(tag);
		writer.outputIntervalHistogram((h.getStartTimeStamp() - writer.getBaseTime()) / 1000.0,
				(h.getEndTimeStamp() - writer.getBaseTime()) / 1000.0, tagged, NANOS_PER_MS);
	}

	/** The tag of a rate: {@code rate-1378}, {@code rate-333.3}. */
	public static String rateTag(double rate) {
		return "rate-" + (rate == Math.rint(rate) ? String.valueOf((long) rate)
				: String.valueOf(Math.round(rate * 10) / 10.0));
	}

	/**
	 * Why the log is missing or incomplete (a warning for the run's report), or null when
	 * it was written; final once the log is closed.
	 */
	public String problem() {
		return problem;
	}

	@Override
	public void close() {
		if (out != null) {
			out.close();
			if (out.checkError() && problem == null) {
				problem = reason(file, null);
			}
		}
	}

	private static String reason(Path file, Exception e) {
		return "the latency log " + file + " could not be written"
				+ (e == null ? ""
						: " (" + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")")
				+ "; the run's figures are unaffected";
	}

}
