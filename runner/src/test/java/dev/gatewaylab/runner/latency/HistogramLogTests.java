package dev.gatewaylab.runner.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistogramLogTests {

	@TempDir
	Path dir;

	@Test
	void everyWindowIsAnIntervalWithItsTagTimesAndResponseTimes() throws Exception {
		Path file = dir.resolve("gateway-latency.hlog");
		try (HistogramLog log = HistogramLog.create(file, "gateway: test generator")) {
			log.append(LatencyWindows.window(1_800_000_000_000L, 2000, 250_000, 1000), HistogramLog.rateTag(1378));
			log.append(LatencyWindows.window(1_800_000_002_100L, 2000, 900_000, 10), HistogramLog.rateTag(1378));
			// never started: left out
			log.append(LatencyWindows.window(0, 0, 1, 1), "rate-1");
			log.append(LatencyWindows.window(1_800_000_004_200L, 4000, 400_000, 500), HistogramLog.rateTag(333.33));
			log.append(LatencyWindows.window(1_800_000_008_300L, 1000, 300_000, 7), null);
		}
		assertThat(Files.readString(file)).startsWith("#gateway: test generator");
		List<EncodableHistogram> read = LatencyWindows.read(file);
		assertThat(read).hasSize(4);
		assertThat(read).extracting(EncodableHistogram::getTag)
			.containsExactly("rate-1378", "rate-1378", "rate-333.3", null);
		assertThat(read).extracting(EncodableHistogram::getStartTimeStamp)
			.containsExactly(1_800_000_000_000L, 1_800_000_002_100L, 1_800_000_004_200L, 1_800_000_008_300L);
		assertThat(read.get(2).getEndTimeStamp()).isEqualTo(1_800_000_008_200L);
		Histogram first = (Histogram) read.get(0);
		assertThat(first.getTotalCount()).isEqualTo(1000);
		assertThat(first.getValueAtPercentile(50)).isBetween(249_000L, 251_000L);
		// what HistogramLogProcessor does with -tag: only that tag's intervals
		Histogram rate1378 = new Histogram(3);
		read.stream().filter(h -> "rate-1378".equals(h.getTag())).forEach(h -> rate1378.add((Histogram) h));
		assertThat(rate1378.getTotalCount()).isEqualTo(1010);
	}

	@Test
	void aLogThatCannotBeWrittenSaysWhyAndCostsNothingElse() {
		Path file = dir.resolve("no-such-directory").resolve("gateway-latency.hlog");
		HistogramLog log = HistogramLog.create(file, "gateway");
		log.append(LatencyWindows.window(1_800_000_000_000L, 2000, 250_000, 1000), "rate-1378");
		log.close();
		assertThat(log.problem()).contains(file.toString())
			.contains("could not be written")
			.contains("figures are unaffected");
		assertThat(file).doesNotExist();
	}

	@Test
	void aWrittenLogHasNoProblem() {
		HistogramLog log = HistogramLog.create(dir.resolve("direct-latency.hlog"), "direct");
		log.append(LatencyWindows.window(1_800_000_000_000L, 2000, 250_000, 1000), "rate-1378");
		log.close();
		assertThat(log.problem()).isNull();
	}

	@Test
	void aTagWithCharactersTheFormatCannotHoldIsRefused() throws Exception {
		try (HistogramLog log = HistogramLog.create(dir.resolve("x.hlog"), "x")) {
			assertThatIllegalArgumentException()
				.isThrownBy(() -> log.append(LatencyWindows.window(1, 1, 1, 1), "rate 1,2"))
				.withMessageContaining("rate 1,2");
		}
	}

}
