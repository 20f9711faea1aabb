package dev.gatewaylab.runner.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.gatewaylab.runner.latency.OpenLoad;
import dev.gatewaylab.runner.result.SweepResult;
import dev.gatewaylab.runner.run.Target;
import java.net.URI;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * A sweep level measured by the latency engine: its µs figures and the ms ones rounded
 * from them.
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
		assertThat(p.engine()).startsWith("latency engine");
	}

}
