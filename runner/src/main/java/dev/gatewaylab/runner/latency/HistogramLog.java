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
 * The latency engine's windows of one target as an HdrHistogram interval log
 * ({@code .hlog}): one interval per window, its response times in nanoseconds, tagged
 * with what the window measured (e.g. {@code rate-1378}), so that any percentile of any
 * window or set of windows can be read again after the run — with HdrHistogram's
 * {@code HistogramLogProcessor} ({@code -tag rate-1378}; it prints ms), or any reader of
 * the format. The header is written with the first window, whose start is the log's base
 * time.
 */
public final class HistogramLog implements AutoCloseable {

	/** Values are ns; the log's max column and its processor's output are in ms. */
	private static final double NANOS_PER_MS = 1_000_000.0;

	private final PrintStream out;

	private final HistogramLogWriter writer;

	private final String comment;

	private boolean started;

	private HistogramLog(OutputStream out, String comment) {
		this.out = new PrintStream(out, false, StandardCharsets.UTF_8);
		this.writer = new HistogramLogWriter(this.out);
		this.comment = comment;
	}

	/** A new log at {@code file} (replaced if present); {@code comment} heads it. */
	public static HistogramLog create(Path file, String comment) throws IOException {
		return new HistogramLog(Files.newOutputStream(file), comment);
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
		if (h.getStartTimeStamp() <= 0) {
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
		Histogram tagged = h.copy();
		tagged.setStartTimeStamp(h.getStartTimeStamp());
		tagged.setEndTimeStamp(h.getEndTimeStamp());
		if (tag != null) {
			tagged.setTag(tag);
		}
		writer.outputIntervalHistogram((tagged.getStartTimeStamp() - writer.getBaseTime()) / 1000.0,
				(tagged.getEndTimeStamp() - writer.getBaseTime()) / 1000.0, tagged, NANOS_PER_MS);
	}

	/** The tag of a rate: {@code rate-1378}, {@code rate-333.3}. */
	public static String rateTag(double rate) {
		return "rate-" + (rate == Math.rint(rate) ? String.valueOf((long) rate)
				: String.valueOf(Math.round(rate * 10) / 10.0));
	}

	@Override
	public void close() throws IOException {
		out.close();
		if (out.checkError()) {
			throw new IOException("could not write the latency log");
		}
	}

}
