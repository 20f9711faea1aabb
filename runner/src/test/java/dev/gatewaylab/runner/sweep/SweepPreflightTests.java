package dev.gatewaylab.runner.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.gatewaylab.runner.report.MarkdownWriter;
import dev.gatewaylab.runner.report.HtmlWriter;
import dev.gatewaylab.runner.report.SweepReport;
import dev.gatewaylab.runner.result.SweepResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SweepPreflightTests {

	@Test
	void warnsWithTheFixWhenKernelLimitsAreBelowTheConcurrency() {
		List<String> warnings = Preflight.warnings(5_000, 1024, 128);
		assertThat(warnings)
			.anySatisfy(w -> assertThat(w).contains("open-files limit 1024").contains("ulimit -n 65535"));
		assertThat(warnings)
			.anySatisfy(w -> assertThat(w).contains("somaxconn 128").contains("sysctl -w net.core.somaxconn=4096"));
	}

	@Test
	void readsTheWholeNumberOfASysctl() throws Exception {
		Path somaxconn = Path.of("/proc/sys/net/core/somaxconn");
		assumeThat(Files.isReadable(somaxconn)).as("Linux").isTrue();
		Process cat = new ProcessBuilder("cat", somaxconn.toString()).start();
		long expected = Long.parseLong(new String(cat.getInputStream().readAllBytes()).trim());
		assertThat(cat.waitFor()).isZero();
		assertThat(Preflight.readLong(somaxconn)).isEqualTo(expected);
	}

	@Test
	void noWarningWhenLimitsAreHighEnoughOrUnknown() {
		assertThat(Preflight.warnings(1000, 65535, 4096)).isEmpty();
		assertThat(Preflight.warnings(1000, -1, -1)).isEmpty();
	}

	@Test
	void sweepReportsHaveATableRowPerLevelInlineChartsAndReadableSettings() {
		List<SweepResult.Point> points = List.of(new SweepResult.Point("gateway", 1, 500, 50, 20, 1, 80, null, 100),
				new SweepResult.Point("gateway", 10, 1000, 100, 10, 1, 50, 40L, 100),
				new SweepResult.Point("gateway", 100, 2000, 200, 50, 1, 300, 250L, 99.5));
		Map<String, Object> settings = new LinkedHashMap<>();
		settings.put("duration_s", 10);
		settings.put("targets", List.of(Map.of("name", "gateway")));
		SweepResult sweep = new SweepResult(settings, Map.of(), points, List.of(), null);
		String md = MarkdownWriter.write(SweepReport.document(sweep));
		// 500 samples: too few for a p99 (1,000), in whole ms as in µs
		assertThat(md).contains("| gateway | 1 | 500 | 50.0 | 20.00 | 1 | 80 | – | – | – | – | 100.00 % |")
			.contains("| gateway | 10 | 1000 | 100.0 | 10.00 | 1 | 50 | 40 | – | – | – | 100.00 % |")
			.contains("| gateway | 100 | 2000 | 200.0 | 50.00 | 1 | 300 | 250 | – | – | – | 99.50 % |")
			.contains("- targets: name=gateway")
			.doesNotContain("{")
			.endsWith("name=gateway\n");
		assertThat(HtmlWriter.write(SweepReport.document(sweep)))
			.contains("TPS vs concurrency", "p99 vs concurrency", "<svg")
			.doesNotContain("<script", "NaN");
	}

}
