package dev.gatewaylab.runner.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.gatewaylab.runner.latency.OpenLoad;
import dev.gatewaylab.runner.result.Json;
import dev.gatewaylab.runner.result.SweepResult;
import dev.gatewaylab.runner.run.Target;
import dev.gatewaylab.runner.stats.Aggregate;
import dev.gatewaylab.runner.stats.JtlSample;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep level measured by the latency generator: its µs figures and the ms ones rounded
 * from them; the whole-ms p99 of either JMeter or the generator only from the samples a
 * p99 needs.
 */
class SweepPointTests {

	@Test
	void aLevelFromTheLatencyEngineKeepsItsMicrosecondsAndRoundsTheMsColumns() {
		Histogram h = new Histogram(3);
		h.recordValueWithCount(380_000, 9_900); // 0.38 ms
		h.recordValueWithCount(2_400_000, 100); // 2.4 ms
		OpenLoad.Window w = new OpenLoad.Window(h, 10_000, 10_000, 9_990, 10, 0, false, 1000, 10);
		SweepResult.Point p = Sweep
			.point(new Target("gateway", "gateway", URI.create("http://127.0.0.1:1"), "gateway", null), 10, w);
		assertThat(p.samples()).isEqualTo(10_000);
		assertThat(p.tps()).isEqualTo(1000.0);
		assertThat(p.p50Us()).isCloseTo(380, within(4.0));
		assertThat(p.p99Us()).isCloseTo(380, within(4.0));
		assertThat(p.p999Us()).isCloseTo(2400, within(24.0));
		assertThat(p.p99Ms()).isZero();
		assertThat(p.maxMs()).isEqualTo(2);
		assertThat(p.successRate()).isCloseTo(99.9, within(1e-9));
		assertThat(p.measuredBy()).startsWith("latency generator");
	}

	@Test
	void theWholeMsP99FollowsTheSampleRuleOnTheLatencyGenerator() {
		SweepResult.Point few = Sweep.point(gateway(), 1, window(999));
		assertThat(few.p50Us()).isNotNull();
		assertThat(few.p99Us()).isNull();
		assertThat(few.p99Ms()).isNull();
		SweepResult.Point enough = Sweep.point(gateway(), 1, window(1000));
		assertThat(enough.p99Us()).isNotNull();
		assertThat(enough.p99Ms()).isEqualTo(2);
		assertThat(Sweep.point(gateway(), 1, window(0)).p99Ms()).isNull();
	}

	@Test
	void theWholeMsP99FollowsTheSampleRuleOnJMeter() {
		assertThat(Sweep.p99Ms(jmeter(999))).isNull();
		assertThat(Sweep.p99Ms(jmeter(1000))).isEqualTo(7);
		assertThat(Sweep.p99Ms(new Aggregate())).isNull();
	}

	@Test
	void aP99TooFewSamplesSupportIsNullInSweepJson(@TempDir Path dir) throws Exception {
		SweepResult sweep = new SweepResult(Map.of(), Map.of(),
				List.of(new SweepResult.Point("gateway", 1, 500, 50, 20, 1, 80, null, 100)), List.of(), null);
		Path file = dir.resolve("sweep.json");
		sweep.write(file);
		assertThat(Files.readString(file)).contains("\"p99_ms\" : null");
		assertThat(Json.read(file, SweepResult.class).points().get(0).p99Ms()).isNull();
	}

	private static Target gateway() {
		return new Target("gateway", "gateway", URI.create("http://127.0.0.1:1"), "gateway", null);
	}

	/** {@code n} responses of 2 ms. */
	private static OpenLoad.Window window(long n) {
		Histogram h = new Histogram(3);
		if (n > 0) {
			h.recordValueWithCount(2_000_000, n);
		}
		return new OpenLoad.Window(h, n, n, n, 0, 0, false, n, 1);
	}

	/** {@code n} JMeter samples of 7 ms. */
	private static Aggregate jmeter(int n) {
		Aggregate a = new Aggregate();
		for (int i = 0; i < n; i++) {
			a.add(new JtlSample(1_000_000L + i, 7, "l", "200", "OK", true, "", 1, "t"));
		}
		return a;
	}

}
