package dev.gatewaylab.runner.curve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.gatewaylab.runner.latency.OpenLoad;
import dev.gatewaylab.runner.report.LatencyReport;
import dev.gatewaylab.runner.result.Json;
import dev.gatewaylab.runner.result.LatencyResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LatencyCurveTests {

	/** A window of {@code n} responses: 98 % at {@code fastUs}, 2 % at {@code slowUs}. */
	static OpenLoad.Window window(double rate, long n, long fastUs, long slowUs) {
		Histogram h = new Histogram(3);
		h.recordValueWithCount(fastUs * 1000, n - n / 50);
		h.recordValueWithCount(slowUs * 1000, n / 50);
		return new OpenLoad.Window(h, n, n, n, 0, 0, false, rate, 3);
	}

	private static LatencyPhase.Windows windows(OpenLoad.Window... w) {
		return new LatencyPhase.Windows(new ArrayList<>(List.of(w)), new ArrayList<>());
	}

	private static LatencyPhase.Measured measured(Map<Double, long[]> gwFastSlowPerRate, int reps) {
		Map<Double, Map<String, LatencyPhase.Windows>> byRate = new TreeMap<>();
		gwFastSlowPerRate.forEach((rate, gw) -> {
			Map<String, LatencyPhase.Windows> m = new LinkedHashMap<>();
			OpenLoad.Window[] g = new OpenLoad.Window[reps];
			OpenLoad.Window[] d = new OpenLoad.Window[reps];
			for (int i = 0; i < reps; i++) {
				g[i] = window(rate, 5000, gw[0] + 10 * i, gw[1]);
				d[i] = window(rate, 5000, 200, 700);
			}
			m.put("gateway", windows(g));
			m.put("direct", windows(d));
			byRate.put(rate, m);
		});
		return new LatencyPhase.Measured(1000, byRate, List.of(), null);
	}

	@Test
	void theHopsAddedLatencyIsGatewayMinusDirectPerRateWithAnIntervalAtTheAnswerRate() {
		LatencyResult r = LatencyCurve.of(measured(Map.of(500.0, new long[] { 400, 1500 }, 1000.0,
				new long[] { 410, 1800 }, 1300.0, new long[] { 420, 2500 }, 1600.0, new long[] { 450, 9000 }), 3),
				"generator");
		assertThat(r.levels()).extracting(LatencyResult.Level::rate).containsExactly(500.0, 1000.0, 1300.0, 1600.0);
		LatencyResult.Added atAnswer = r.addedAtAnswerRate();
		// per repetition: gateway p50 410, 420, 430 µs (1 % resolution) against 200
		assertThat(atAnswer.p50().values()).hasSize(3);
		assertThat(atAnswer.p50().mean()).isCloseTo(220, within(5.0));
		assertThat(atAnswer.p50().ci95()).isPositive();
		assertThat(atAnswer.p99().mean()).isCloseTo(1100, within(15.0));
		// 15,000 samples over the three windows: enough for p99.9
		assertThat(r.levels().get(1).targets().get("gateway").p999Us()).isNotNull();
	}

	@Test
	void theMvcGatewayBesideTheGatewayGetsWhatItAddsOverDirectPerRateAndItsIntervalAtTheAnswerRate() {
		LatencyPhase.Measured m = measured(Map.of(1000.0, new long[] { 400, 1500 }, 2000.0, new long[] { 420, 1800 }),
				3);
		m.byRate()
			.forEach((rate, targets) -> targets.put("gateway-mvc", windows(window(rate, 5000, 700, 2700),
					window(rate, 5000, 710, 2700), window(rate, 5000, 720, 2700))));
		LatencyResult r = LatencyCurve.of(m, "generator");

		assertThat(r.addedAtAnswerRate().p50().mean()).as("the gateway's, as before").isCloseTo(210, within(5.0));
		LatencyResult.Added mvc = r.addedAtAnswerRateBy().get("gateway-mvc");
		assertThat(mvc.p50().values()).hasSize(3);
		assertThat(mvc.p50().mean()).isCloseTo(510, within(10.0));
		assertThat(r.levels().get(1).addedBy().get("gateway-mvc").p99().mean()).isCloseTo(2000, within(30.0));
		assertThat(LatencyReport.table(r)).contains("gateway-mvc − direct:");
	}

	@Test
	void theKneeIsTheFirstRateWhereTheAddedP99DoublesOnTheLowestRatesAndNoneWhenItNeverDoes() {
		LatencyResult knee = LatencyCurve.of(measured(Map.of(500.0, new long[] { 400, 1500 }, 1000.0,
				new long[] { 410, 1800 }, 1300.0, new long[] { 420, 2500 }, 1600.0, new long[] { 450, 9000 }), 1),
				"generator");
		// added p99: 800, 1100, 1800 (≥ 2 × 800), 8300 µs
		assertThat(knee.kneeRate()).isEqualTo(1300.0);
		LatencyResult flat = LatencyCurve.of(measured(Map.of(500.0, new long[] { 400, 1500 }, 1000.0,
				new long[] { 410, 1600 }, 1300.0, new long[] { 420, 1700 }, 1600.0, new long[] { 450, 2000 }), 1),
				"generator");
		assertThat(flat.kneeRate()).isNull();
		assertThat(LatencyReport.knee(flat)).isEqualTo("No knee up to 1,600 req/s (the highest rate measured).");
		// one slow window at 1,000 req/s (added p99 2,100 µs), back to 1,100 at 1,300:
		// the knee is where the hop departs for good
		LatencyResult spike = LatencyCurve.of(measured(Map.of(500.0, new long[] { 400, 1500 }, 1000.0,
				new long[] { 410, 2800 }, 1300.0, new long[] { 420, 1800 }, 1600.0, new long[] { 450, 9000 }), 1),
				"generator");
		assertThat(spike.kneeRate()).isEqualTo(1600.0);
	}

	@Test
	void noKneeIsJudgedWhenTheAddedP99ItIsMeasuredAgainstIsNotResolved(@TempDir Path dir) throws IOException {
		Map<Double, Map<String, LatencyPhase.Windows>> byRate = new TreeMap<>();
		// the answer rate: the gateway's p99 per repetition 1,500, 4,000 and 900 µs
		// against
		// direct's 700 — added 800, 3,300, 200: ± 200 % or so
		byRate.put(1000.0, Map.of("gateway",
				windows(window(1000, 5000, 400, 1500), window(1000, 5000, 400, 4000), window(1000, 5000, 400, 900)),
				"direct",
				windows(window(1000, 5000, 200, 700), window(1000, 5000, 200, 700), window(1000, 5000, 200, 700))));
		// one window per higher rate, each at more than twice the answer rate's mean
		for (double rate : new double[] { 2000, 3000 }) {
			byRate.put(rate, Map.of("gateway", windows(window(rate, 10000, 450, 9000)), "direct",
					windows(window(rate, 10000, 200, 700))));
		}
		LatencyResult r = LatencyCurve.of(new LatencyPhase.Measured(1000, byRate, List.of(), null), "generator");
		assertThat(r.addedAtAnswerRate().p99().ci95()).isGreaterThan(0.25 * r.addedAtAnswerRate().p99().mean());
		assertThat(r.kneeRate()).isNull();
		assertThat(r.kneeNotJudged()).isEqualTo(LatencyResult.P99_NOT_RESOLVED);
		assertThat(r.kneeJudged()).isFalse();
		assertThat(LatencyReport.knee(r)).startsWith("Knee not judged: the added p99 at the lowest rate")
			.doesNotContain("2,000");
		// the per-rate table is as it was: every rate's added p99
		assertThat(LatencyReport.table(r)).containsPattern("\\| 2,000 \\| 250 \\| 8,30\\d \\|")
			.containsPattern("\\| 3,000 \\| 250 \\| 8,30\\d \\|");
		// run.json says why, and reads back
		Path json = dir.resolve("latency.json");
		Json.write(json, r);
		assertThat(Files.readString(json)).contains("\"knee_not_judged\" : \"p99 not resolved\"");
		assertThat(Json.read(json, LatencyResult.class).kneeNotJudged()).isEqualTo(LatencyResult.P99_NOT_RESOLVED);
	}

	@Test
	void aNegativeAddedP999IsShownAsNotResolved() {
		Map<Double, Map<String, LatencyPhase.Windows>> byRate = new TreeMap<>();
		// 15,000 samples a side: p99.9 is the slow 2 %, 1,500 µs through the gateway,
		// 2,000
		// directly — the gateway "faster" at its slowest 0.1 %
		byRate.put(1000.0, Map.of("gateway",
				windows(window(1000, 5000, 400, 1500), window(1000, 5000, 410, 1500), window(1000, 5000, 420, 1500)),
				"direct",
				windows(window(1000, 5000, 200, 2000), window(1000, 5000, 200, 2000), window(1000, 5000, 200, 2000))));
		LatencyResult r = LatencyCurve.of(new LatencyPhase.Measured(1000, byRate, List.of(), null), "generator");
		assertThat(r.addedAtAnswerRate().p999().mean()).isNegative();
		assertThat(LatencyReport.table(r))
			.containsPattern("\\| 1,000 \\| 2\\d\\d ± \\d+ \\| -50\\d ± 0 \\| not resolved \\|");
	}

	@Test
	void aPointWithFewerThanTenThousandSamplesHasNoP999AndOneWithoutRequestsHasNoFigures() {
		LatencyResult.Point few = LatencyCurve.point(500, List.of(window(500, 9_999, 300, 900)));
		assertThat(few.samples()).isEqualTo(9_999);
		assertThat(few.p999Us()).isNull();
		assertThat(few.p50Us()).isCloseTo(300, within(3.0));
		LatencyResult.Point none = LatencyCurve.point(500,
				List.of(new OpenLoad.Window(new Histogram(3), 0, 0, 0, 0, 0, false, 500, 3)));
		assertThat(none.requests()).isZero();
		assertThat(none.successRate()).isZero();
		assertThat(none.p50Us()).isNull();
		assertThat(none.meanUs()).isNaN();
	}

	@Test
	void aPercentileIsLeftOutWhereThePointHasFewerThanTenSamplesAboveIt() {
		LatencyResult.Point p = LatencyCurve.point(40, List.of(window(40, 999, 300, 900)));
		assertThat(p.p50Us()).isCloseTo(300, within(3.0));
		assertThat(p.p90Us()).isCloseTo(300, within(3.0));
		assertThat(p.p99Us()).isNull();
		assertThat(p.p999Us()).isNull();
		assertThat(LatencyCurve.point(40, List.of(window(40, 1_000, 300, 900))).p99Us()).isCloseTo(900, within(9.0));
		assertThat(LatencyCurve.point(40, List.of(window(40, 19, 300, 900))).p50Us()).isNull();
	}

	@Test
	void withTooFewSamplesPerWindowTheAddedP99HasNoEstimateTheTableSaysSoAndNoKneeIsJudged() {
		Map<Double, Map<String, LatencyPhase.Windows>> byRate = new TreeMap<>();
		for (double rate : new double[] { 20, 40, 52, 64 }) {
			Map<String, LatencyPhase.Windows> m = new LinkedHashMap<>();
			// a smoke run's 1 s windows: 40 samples each, two repetitions
			m.put("gateway", windows(window(rate, 40, 4000, 48000), window(rate, 40, 4100, 6000)));
			m.put("direct", windows(window(rate, 40, 2000, 5000), window(rate, 40, 2100, 5000)));
			byRate.put(rate, m);
		}
		LatencyResult r = LatencyCurve.of(new LatencyPhase.Measured(40, byRate, List.of(), null), "generator");
		assertThat(r.addedAtAnswerRate().p50().values()).hasSize(2);
		assertThat(r.addedAtAnswerRate().p50().mean()).isCloseTo(2000, within(25.0));
		assertThat(r.addedAtAnswerRate().p99()).isNull();
		assertThat(r.levels()).allMatch(l -> l.added().p99() == null && l.added().p50() != null);
		assertThat(r.kneeRate()).isNull();
		assertThat(r.kneeJudged()).isFalse();
		assertThat(LatencyReport.knee(r))
			.isEqualTo("Knee not judged: fewer than two rates had the samples a p99 needs.");
		assertThat(LatencyReport.table(r)).containsPattern("\\| 40 \\| 2,0\\d\\d ± \\d+ \\| – \\| – \\|");
	}

}
