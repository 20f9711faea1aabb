package dev.gatewaylab.runner.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.gatewaylab.runner.report.BenchReport;
import dev.gatewaylab.runner.report.CpuSplitReport;
import dev.gatewaylab.runner.report.MarkdownWriter;
import dev.gatewaylab.runner.result.CpuCost;
import dev.gatewaylab.runner.result.CpuSplit;
import dev.gatewaylab.runner.result.RepResult;
import dev.gatewaylab.runner.result.RunResult;
import dev.gatewaylab.runner.result.TargetResult;
import dev.gatewaylab.runner.stats.Stats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuSplitsTests {

	private static final Map<String, String> SERVICES = Map.of("gateway", "gateway", "floor", "floor", "direct",
			"study-service");

	/** A target whose own process and study-service spent the given µs per request. */
	private static TargetResult t(String name, String process, double... us) {
		Map<String, CpuCost> cpu = new LinkedHashMap<>();
		if (us.length > 0) {
			cpu.put(process, new CpuCost(Stats.mean(us), Stats.ci95(us), us));
		}
		cpu.put("study-service", new CpuCost(40, 1, new double[] { 40, 40, 40 }));
		return new TargetResult(name, name, "http://127.0.0.1:1", 1, 0, 0, 1, 1, 1, 1L, 1L, 1L, 100, Map.of(),
				new double[] { 1, 1, 1 }, new double[3], Map.of(), 0, cpu, null, null, null);
	}

	@Test
	void pairsTheGatewayAndTheFloorRepetitionByRepetition() {
		CpuSplit split = CpuSplits.of(List.of(t("gateway", "gateway", 52, 56, 54), t("floor", "floor", 26, 27, 25),
				t("direct", "study-service", 40, 40, 40)), SERVICES);

		assertThat(split.gateway()).isEqualTo("gateway");
		assertThat(split.floor()).isEqualTo("floor");
		assertThat(split.gatewayUs().mean()).isEqualTo(54.0);
		assertThat(split.floorUs().mean()).isEqualTo(26.0);
		assertThat(split.onTopUs().reps()).containsExactly(26, 29, 29);
		assertThat(split.onTopUs().mean()).isCloseTo(28.0, within(1e-9));
		assertThat(split.onTopUs().ci95()).isEqualTo(Stats.ci95(new double[] { 26, 29, 29 }));
		assertThat(split.gatewayOverFloor().reps()).containsExactly(2.0, 56.0 / 27, 54.0 / 25);
		assertThat(split.floorShare()).isCloseTo(26.0 / 54, within(1e-9));
	}

	@Test
	void findsTheTargetsByTheServiceTheyMeasure() {
		Map<String, String> services = Map.of("gw", "gateway", "rn", "floor");
		CpuSplit split = CpuSplits.of(List.of(t("rn", "floor", 20, 20, 20), t("gw", "gateway", 50, 50, 50)), services);

		assertThat(split.gateway()).isEqualTo("gw");
		assertThat(split.floor()).isEqualTo("rn");
		assertThat(split.onTopUs().mean()).isEqualTo(30.0);
	}

	@Test
	void noSplitWithoutBothTargetsOrWithoutTheirCpuInEveryRepetition() {
		assertThat(CpuSplits.of(List.of(t("gateway", "gateway", 52, 56, 54), t("direct", "study-service", 40, 40, 40)),
				SERVICES))
			.as("no floor target")
			.isNull();
		assertThat(CpuSplits.of(List.of(t("floor", "floor", 26, 27, 25)), SERVICES)).as("no gateway target").isNull();
		assertThat(CpuSplits.of(List.of(t("gateway", "gateway"), t("floor", "floor", 26, 27, 25)), SERVICES))
			.as("the gateway's process not read (no pid file)")
			.isNull();
		assertThat(CpuSplits.of(List.of(t("gateway", "gateway", 52, 56), t("floor", "floor", 26, 27, 25)), SERVICES))
			.as("a repetition without the gateway's CPU cannot be paired")
			.isNull();
	}

	@Test
	void runJsonAndTheReportCarryTheSplit(@TempDir Path dir) throws Exception {
		List<TargetResult> targets = List.of(t("gateway", "gateway", 52, 56, 54), t("floor", "floor", 26, 27, 25));
		CpuSplit split = CpuSplits.of(targets, SERVICES);
		RunResult run = new RunResult(RunResult.VALID, List.of(), null,
				Map.of("model", "closed (8 threads)", "repetitions", 3, "duration_s", 3, "warmup_s", 5),
				Map.of("started", "2026-01-01T00:00:00Z"), targets, List.of(),
				List.of(new RepResult("gateway", 1, 1000, 0, 100, 2, 3L, 10, "raw/x.jtl")), List.of(), List.of(),
				List.of(), null, null, split, null);

		BenchReport.write(dir, run);

		String json = Files.readString(dir.resolve("run.json"));
		assertThat(json).contains("\"cpu_split\"", "\"floor_us_per_request\"", "\"on_top_us_per_request\"",
				"\"gateway_over_floor\"");
		RunResult back = RunResult.read(dir.resolve("run.json"));
		assertThat(back.cpuSplit().onTopUs().reps()).containsExactly(26, 29, 29);
		assertThat(back.cpuSplit().floorUs().mean()).isEqualTo(26.0);
		String md = Files.readString(dir.resolve("report.md"));
		assertThat(md).contains("Gateway CPU per request: the floor and what is on top")
			.contains("floor: Reactor Netty's own cost")
			.contains("on top: Spring Cloud Gateway + the lab's features (gateway − floor) | 28.0 ± ")
			.contains("gateway ÷ floor CPU per request: 2.08 ± ");
		assertThat(CpuSplitReport.line(split)).startsWith("gateway CPU per request 54.0 ± ")
			.contains(" µs = floor 26.0 ± ", " + on top 28.0 ± ", " (gateway ÷ floor 2.08 ± ");
		assertThat(CpuSplitReport.line(null)).isNull();
		assertThat(MarkdownWriter.write(BenchReport.document(run.withWarningsAndNotes(List.of(), List.of()))))
			.contains("| 48 % |");
	}

	@Test
	void aRunWithoutTheFloorHasNoSplitSection(@TempDir Path dir) throws Exception {
		RunResult run = new RunResult(RunResult.VALID, List.of(), null,
				Map.of("model", "closed (8 threads)", "repetitions", 3, "duration_s", 3, "warmup_s", 5),
				Map.of("started", "2026-01-01T00:00:00Z"), List.of(t("gateway", "gateway", 52, 56, 54)), List.of(),
				List.of(), List.of(), List.of(), List.of(), null, null, null, null);

		BenchReport.write(dir, run);

		assertThat(Files.readString(dir.resolve("run.json"))).doesNotContain("cpu_split");
		assertThat(Files.readString(dir.resolve("report.md"))).doesNotContain("the floor and what is on top");
	}

}
