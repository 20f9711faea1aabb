package dev.gatewaylab.runner.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gatewaylab.runner.LabFixture;
import dev.gatewaylab.runner.latency.OpenLoad;
import dev.gatewaylab.runner.run.LabException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The latency generator's options reach its plan, and bad values stop the run before
 * anything starts. Real runs with them: ci/latency-e2e.sh and bench/latency-compare.sh.
 */
class LatencyOptionsTests {

	@TempDir
	Path tmp;

	@Test
	void byDefaultArrivalsAreEvenlySpacedOver32Connections() throws Exception {
		try (LabFixture lab = new LabFixture(tmp)) {
			BenchCommand cmd = ParsedBench.parse("--targets", "direct");
			cmd.settings();
			assertThat(cmd.latencyPlan().arrivals()).isEqualTo(OpenLoad.Arrivals.UNIFORM);
			assertThat(cmd.latencyPlan().connections()).isEqualTo(32);
			assertThat(cmd.latencyPlan().generator()).contains("evenly spaced arrivals", "32 keep-alive connections");
		}
	}

	@Test
	void arrivalsAndConnectionsCanBeChosen() throws Exception {
		try (LabFixture lab = new LabFixture(tmp)) {
			BenchCommand cmd = ParsedBench.parse("--targets", "direct", "--latency-arrivals", "poisson",
					"--latency-connections", "4");
			cmd.settings();
			assertThat(cmd.latencyPlan().arrivals()).isEqualTo(OpenLoad.Arrivals.POISSON);
			assertThat(cmd.latencyPlan().connections()).isEqualTo(4);
			assertThat(cmd.latencyPlan().generator()).contains("Poisson arrivals", "4 keep-alive connections");
		}
	}

	@Test
	void badValuesNameTheOptionAndTheFix() throws Exception {
		try (LabFixture lab = new LabFixture(tmp)) {
			assertThatThrownBy(
					() -> ParsedBench.parse("--targets", "direct", "--latency-arrivals", "bursty").settings())
				.isInstanceOf(LabException.class)
				.hasMessageContaining("--latency-arrivals bursty")
				.hasMessageContaining("use uniform (the default) or poisson");
			assertThatThrownBy(() -> ParsedBench.parse("--targets", "direct", "--latency-connections", "0").settings())
				.isInstanceOf(LabException.class)
				.hasMessageContaining("--latency-connections 0");
		}
	}

}
