package dev.gatewaylab.runner.latency;

import java.io.FileNotFoundException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/**
 * Latency windows made up for tests, and the latency logs they are written to, read back.
 */
public final class LatencyWindows {

	private LatencyWindows() {
	}

	/**
	 * A window that started at {@code startMillis} and lasted {@code millis}, with
	 * {@code count} responses of {@code valueNs} each, all of them ok.
	 */
	public static OpenLoad.Window window(long startMillis, long millis, long valueNs, int count) {
		Histogram h = new Histogram(3);
		h.recordValueWithCount(valueNs, count);
		h.setStartTimeStamp(startMillis);
		h.setEndTimeStamp(startMillis + millis);
		return new OpenLoad.Window(h, count, count, count, 0, 0, false, 1, millis / 1000.0);
	}

	/** Every interval of a latency log, in the order it holds them. */
	public static List<EncodableHistogram> read(Path file) throws FileNotFoundException {
		HistogramLogReader reader = new HistogramLogReader(file.toFile());
		List<EncodableHistogram> out = new ArrayList<>();
		EncodableHistogram h;
		while ((h = reader.nextIntervalHistogram()) != null) {
			out.add(h);
		}
		return out;
	}

}
