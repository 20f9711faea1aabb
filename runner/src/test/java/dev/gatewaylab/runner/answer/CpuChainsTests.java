package dev.gatewaylab.runner.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gatewaylab.runner.report.BenchReport;
import dev.gatewaylab.runner.report.CpuChainReport;
import dev.gatewaylab.runner.result.CpuChain;
import dev.gatewaylab.runner.result.CpuCost;
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

class CpuChainsTests {

	private static final Map<String, String> SERVICES = Map.of("stock", "stock", "gateway", "gateway", "floor", "floor",
			"direct", "study-service");

	private static final Map<String, List<String>> FEATURES = Map.of("gateway",
			List.of("login limit per client address", "request guard"), "stock", List.of());

	private static TargetResult t(String name, String process, double... us) {
		Map<String, CpuCost> cpu = new LinkedHashMap<>();
		if (us.length > 0) {
			cpu.put(process, new CpuCost(Stats.mean(us), Stats.ci95(us), us));
		}
		return new TargetResult(name, name, "http://127.0.0.1:1", 1, 0, 0, 1, 1, 1, 1L, 1L, 1L, 100, Map.of(),
				new double[] { 1, 1, 1 }, new double[3], Map.of(), 0, cpu, null, null, null);
	}

	private static List<TargetResult> chainRun() {
		return List.of(t("stock", "stock", 95, 90, 100), t("gateway", "gateway", 52, 56, 54),
				t("floor", "floor", 26, 27, 25), t("direct", "study-service", 40, 40, 40));
	}

	@Test
	void pairsStockAndTheGatewayRepetitionByRepetitionWithTheFloorBeside() {
		CpuChain chain = CpuChains.of(chainRun(), SERVICES, FEATURES);

		assertThat(chain.stockUs().mean()).isEqualTo(95.0);
		assertThat(chain.gatewayUs().mean()).isEqualTo(54.0);
		assertThat(chain.floorUs().mean()).isEqualTo(26.0);
		assertThat(chain.savedUs().reps()).containsExactly(43, 34, 46);
		assertThat(chain.stockCostlier()).isEqualTo(3);
		assertThat(chain.savedShare()).isEqualTo(41.0 / 95);
		assertThat(chain.gatewayOnlyFeatures()).containsExactly("login limit per client address", "request guard");
	}

	@Test
	void theClauseLeadsWithTheChainAndNamesWhatOursRunsBesides() {
		String clause = CpuChains.clause(CpuChains.of(chainRun(), SERVICES, FEATURES));

		assertThat(clause).startsWith("CPU per request: stock Spring Cloud Gateway 95 µs ± 12 µs")
			.contains(" → ours 54 µs ± 5 µs", " → floor 26 µs ± 2 µs", "; ours saves 41 µs ± 16 µs",
					" (43 %) of stock's, stock costlier in 3 of 3 repetitions",
					", though ours also runs login limit per client address, request guard");
		assertThat(CpuChains.clause(CpuChains.of(chainRun(), SERVICES, Map.of())))
			.endsWith("(the features ours runs besides could not be read)");
	}

	@Test
	void aRepetitionWhereStockCostLessIsCounted() {
		CpuChain chain = CpuChains.of(List.of(t("stock", "stock", 95, 50, 100), t("gateway", "gateway", 52, 56, 54)),
				SERVICES, FEATURES);

		assertThat(chain.stockCostlier()).isEqualTo(2);
		assertThat(chain.floor()).isNull();
		assertThat(CpuChains.clause(chain)).contains("stock costlier in 2 of 3 repetitions").doesNotContain("floor");
	}

	@Test
	void noChainWithoutStockAndTheGatewayInEveryRepetition() {
		assertThat(CpuChains.of(List.of(t("gateway", "gateway", 52, 56, 54)), SERVICES, FEATURES)).isNull();
		assertThat(CpuChains.of(List.of(t("stock", "stock", 95, 90, 100), t("gateway", "gateway", 52, 56)), SERVICES,
				FEATURES))
			.isNull();
	}

	@Test
	void runJsonAndTheReportCarryTheChain(@TempDir Path dir) throws Exception {
		List<TargetResult> targets = chainRun();
		CpuChain chain = CpuChains.of(targets, SERVICES, FEATURES);
		RunResult run = new RunResult(RunResult.VALID, List.of(), "an answer",
				Map.of("model", "closed (8 threads)", "repetitions", 3, "duration_s", 3, "warmup_s", 5),
				Map.of("started", "2026-01-01T00:00:00Z"), targets, List.of(),
				List.of(new RepResult("gateway", 1, 1000, 0, 100, 2, 3L, 10, "raw/x.jtl")), List.of(), List.of(),
				List.of(), null, null, null, chain);

		BenchReport.write(dir, run);

		assertThat(Files.readString(dir.resolve("run.json"))).contains("\"cpu_chain\"", "\"stock_us_per_request\"",
				"\"saved_us_per_request\"", "\"repetitions_stock_costlier\" : 3", "\"gateway_only_features\"");
		assertThat(RunResult.read(dir.resolve("run.json")).cpuChain().savedUs().reps()).containsExactly(43, 34, 46);
		assertThat(Files.readString(dir.resolve("report.md"))).contains("CPU per request: stock → ours → floor")
			.contains("Ours saves 43 % of stock's CPU per request; stock cost more in 3 of 3 repetitions.")
			.contains("Ours runs features stock lacks");
		assertThat(CpuChainReport.line(chain)).isEqualTo(
				"CPU per request: stock 95.0 ± 12.4 µs → gateway 54.0 ± 5.0 → floor 26.0 ± 2.5 (saved 41.0 ± 15.5, 43 %)");
	}

}
