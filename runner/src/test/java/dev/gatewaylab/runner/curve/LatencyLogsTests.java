package dev.gatewaylab.runner.curve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gatewaylab.runner.latency.LatencyWindows;
import dev.gatewaylab.runner.latency.OpenLoad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LatencyLogsTests {

	@TempDir
	Path raw;

	@Test
	void eachTargetsWindowsInTheOrderTheyRanTaggedWithTheirRate() throws Exception {
		long t0 = 1_800_000_000_000L;
		Map<Double, Map<String, LatencyPhase.Windows>> byRate = new TreeMap<>();
		// the answer rate's repetitions interleave the targets, the curve comes after;
		// a target's windows as the phase holds them need not be in time order
		byRate.put(1000.0, Map.of("gateway", windows(window(t0 + 4200, 310), window(t0, 300)), "direct",
				windows(window(t0 + 2100, 150), window(t0 + 6300, 160))));
		byRate.put(2000.0,
				Map.of("gateway", windows(window(t0 + 8400, 400)), "direct", windows(window(t0 + 12600, 200))));
		LatencyPhase.Measured m = new LatencyPhase.Measured(1000, byRate, List.of(), null);

		List<String> problems = LatencyLogs.write(raw, m, "test generator");

		assertThat(problems).isEmpty();
		List<EncodableHistogram> gateway = LatencyWindows.read(raw.resolve("gateway-latency.hlog"));
		assertThat(gateway).extracting(EncodableHistogram::getTag)
			.containsExactly("rate-1000", "rate-1000", "rate-2000");
		assertThat(gateway).extracting(EncodableHistogram::getStartTimeStamp).containsExactly(t0, t0 + 4200, t0 + 8400);
		assertThat(((Histogram) gateway.get(2)).getValueAtPercentile(50)).isBetween(399_000L, 401_000L);
		assertThat(LatencyWindows.read(raw.resolve("direct-latency.hlog"))).hasSize(3);
		assertThat(Files.readString(raw.resolve("direct-latency.hlog"))).startsWith("#direct: test generator");
	}

	@Test
	void aLogThatCannotBeWrittenIsAProblemToReport() {
		Map<Double, Map<String, LatencyPhase.Windows>> byRate = Map.of(1000.0,
				Map.of("gateway", windows(window(1_800_000_000_000L, 300))));
		List<String> problems = LatencyLogs.write(raw.resolve("missing"),
				new LatencyPhase.Measured(1000, byRate, List.of(), null), "test generator");
		assertThat(problems).singleElement().asString().contains("gateway-latency.hlog");
	}

	private static LatencyPhase.Windows windows(OpenLoad.Window... windows) {
		return new LatencyPhase.Windows(new ArrayList<>(List.of(windows)), new ArrayList<>());
	}

	private static OpenLoad.Window window(long start, long valueUs) {
		return LatencyWindows.window(start, 2000, valueUs * 1000, 100);
	}

}
