package dev.gatewaylab.runner.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gatewaylab.runner.report.BenchReport;
import dev.gatewaylab.runner.report.HtmlWriter;
import dev.gatewaylab.runner.report.MarkdownWriter;
import dev.gatewaylab.runner.result.RepResult;
import dev.gatewaylab.runner.result.RunResult;
import dev.gatewaylab.runner.result.TargetResult;
import dev.gatewaylab.runner.run.LabException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareCommandTests {

	@TempDir
	Path tmp;

	static TargetResult target(String name, double[] tps, long p99) {
		double mean = java.util.Arrays.stream(tps).average().orElseThrow();
		return new TargetResult(name, name, "http://127.0.0.1:8080", 1000, mean, 1.0, 2.0, 1, 50, 2L, 3L, p99, 100.0,
				Map.of(), tps, new double[] { p99, p99 }, Map.of(), mean, Map.of(), null, null,
				new double[] { 2, 2.1 });
	}

	static RunResult run(TargetResult... ts) {
		return new RunResult(RunResult.VALID, List.of(), "gateway served 100 req/s.",
				Map.of("model", "closed (8 threads)", "repetitions", 3, "duration_s", 12, "warmup_s", 10),
				Map.of("started", "2026-01-01T00:00:00Z"), List.of(ts), List.of(),
				List.of(new RepResult(ts[0].name(), 1, 1000, 0, 100, 2, 3L, 10, "raw/x.jtl")), List.of(), List.of(),
				List.of(), null, null, null, null);
	}

	@Test
	void reportsTpsDeltaWithCiAndWelchSignificanceAndP99Delta() throws Exception {
		RunResult a = run(target("gateway", new double[] { 100, 102, 98 }, 10));
		RunResult b = run(target("gateway", new double[] { 110, 112, 108 }, 8));
		a.write(tmp.resolve("a.json"));
		RunResult roundTrip = RunResult.read(tmp.resolve("a.json"));
		String table = CompareCommand.render(roundTrip, b);
		// diff 10 on 100, SE = sqrt(4/3 + 4/3) = 1.633, df = 4 -> ± 4.53 -> ± 4.5 %
		assertThat(table).contains("| gateway | 100.0 ± 1.0 | 110.0 ± 1.0 | +10.0 % ± 4.5 % | significant (Welch p=")
			.contains("| 10 | 8 | -20.0 % |");
	}

	@Test
	void differentTargetSetsAreAnError() {
		assertThatThrownBy(() -> CompareCommand.render(run(target("gateway", new double[] { 1, 2 }, 1)),
				run(target("direct", new double[] { 1, 2 }, 1))))
			.isInstanceOf(LabException.class)
			.hasMessageContaining("different targets");
	}

	@Test
	void reportsAreSelfContained() {
		RunResult r = run(target("gateway", new double[] { 100, 102 }, 10),
				target("direct", new double[] { 300, 310 }, 4));
		String html = HtmlWriter.write(BenchReport.document(r));
		assertThat(html)
			.contains("<svg", "Throughput per target", "Latency percentiles", "Mean response time over time")
			.doesNotContain("<script")
			.doesNotContain("http-equiv")
			.doesNotContain("<link");
		assertThat(MarkdownWriter.write(BenchReport.document(r))).contains("| gateway | 1000 | 101.0 ± 1.0 |");
	}

}
