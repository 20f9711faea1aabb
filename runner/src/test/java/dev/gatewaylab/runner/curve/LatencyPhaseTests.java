package dev.gatewaylab.runner.curve;

import dev.gatewaylab.runner.latency.OpenLoad;
import dev.gatewaylab.runner.run.Catalog;
import dev.gatewaylab.runner.run.Progress;
import dev.gatewaylab.runner.run.Settings;
import dev.gatewaylab.runner.run.Target;
import dev.gatewaylab.runner.run.TestSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which windows the latency phase runs, in which order, at which rates (a stand-in
 * generator).
 */
class LatencyPhaseTests {

	private static Catalog catalog() {
		Properties p = new Properties();
		p.setProperty("services", "study-service,gateway,monolith");
		for (String s : List.of("study-service", "gateway", "monolith")) {
			p.setProperty("service." + s + ".port", "8081");
			p.setProperty("service." + s + ".management-port", "9081");
		}
		p.setProperty("targets", "gateway,direct,monolith");
		p.setProperty("target.gateway.service", "gateway");
		p.setProperty("target.direct.service", "study-service");
		p.setProperty("target.monolith.service", "monolith");
		for (String t : List.of("gateway", "direct", "monolith")) {
			p.setProperty("target." + t + ".needs", "study-service");
			p.setProperty("target." + t + ".plan", t);
			p.setProperty("plan." + t + ".request", "GET /api/studies/{id}");
		}
		return Catalog.parse(p);
	}

	private static Settings settings(boolean quick, int warmup) {
		return TestSettings.bench()
			.warmup(warmup)
			.latencyRepetitions(3)
			.quick(quick)
			.jmeterProperties(Map.of("idMax", "50"))
			.catalog(catalog())
			.build();
	}

	private static Target t(String name) {
		return new Target(name, name, URI.create("http://127.0.0.1:1"), name, null);
	}

	private final List<String> calls = new ArrayList<>();

	/** Each window's seconds, in the order run. */
	private final List<Double> windowSeconds = new ArrayList<>();

	/** The remaining time the progress line showed as each window began. */
	private final List<Long> secondsLeft = new ArrayList<>();

	/** A progress line on a clock that stands still: it shows the plan as made. */
	private final Progress progress = new Progress(new PrintStream(new ByteArrayOutputStream()), 10, () -> 0L);

	@AfterEach
	void closeProgress() {
		progress.close();
	}

	private LatencyPhase.Measured run(Settings s) {
		return run(s, 1000);
	}

	private LatencyPhase.Measured run(Settings s, double answerRate) {
		return phase(s).run(targets(), answerRate, progress);
	}

	/**
	 * The levels of the earlier default, 0.5, 1, 1.3 and 1.6: a curve below the answer
	 * rate.
	 */
	private static final double[] LEVELS_AROUND = { 0.5, 1, 1.3, 1.6 };

	private LatencyPhase.Measured run(Settings s, double answerRate, double[] levels) {
		return phase(s, levels).run(targets(), answerRate, progress);
	}

	/** Each window's p50 in µs, in the order run (300 past the list). */
	private final List<Long> p50PerWindow = new ArrayList<>();

	private LatencyPhase phase(Settings s) {
		return phase(s, LatencyPlan.DEFAULT_LEVELS);
	}

	private LatencyPhase phase(Settings s, double[] levels) {
		return new LatencyPhase(s, new LatencyPlan(levels, 99), (target, request, rate, seconds) -> {
			assertThat(request.idMax()).isEqualTo(50);
			int i = calls.size();
			long p50 = i < p50PerWindow.size() ? p50PerWindow.get(i) : 300;
			calls.add(target.name() + "@" + Math.round(rate) + "/" + seconds);
			windowSeconds.add(seconds);
			secondsLeft.add(progress.secondsLeft());
			return LatencyCurveTests.window(rate, 100, p50, 3 * p50);
		});
	}

	private static List<Target> targets() {
		return List.of(t("gateway"), t("direct"), t("monolith"));
	}

	@Test
	void everyTargetAtTheAnswerRateInAlternatingOrderThenTheHopAtTheOtherRates() {
		LatencyPhase.Measured m = run(settings(false, 5));
		assertThat(calls).containsExactly(
				// the generator's warm-up, discarded:
				// two rounds of 1 s per target (the p50 fell)
				"gateway@1000/1.0", "direct@1000/1.0", "monolith@1000/1.0", "gateway@1000/1.0", "direct@1000/1.0",
				"monolith@1000/1.0",
				// the answer rate: 3 interleaved repetitions of 2 s
				"gateway@1000/2.0", "direct@1000/2.0", "monolith@1000/2.0", "monolith@1000/2.0", "direct@1000/2.0",
				"gateway@1000/2.0", "gateway@1000/2.0", "direct@1000/2.0", "monolith@1000/2.0",
				// the curve: gateway and direct,
				// windows for 10,000 samples within [2, 4] s
				"gateway@2000/4.0", "direct@2000/4.0", "direct@3000/4.0", "gateway@3000/4.0", "gateway@4000/3.0",
				"direct@4000/3.0");
		assertThat(m.byRate().keySet()).containsExactly(1000.0, 2000.0, 3000.0, 4000.0);
		assertThat(m.byRate().get(1000.0).get("gateway").windows()).hasSize(3);
		assertThat(m.warmup().rounds()).isEqualTo(2);
		assertThat(m.warmup().capped()).isFalse();
	}

	/** Scripts the warm-up: per round, the p50 of gateway, direct and monolith. */
	private void warmupRounds(long[]... rounds) {
		for (long[] round : rounds) {
			for (long p50 : round) {
				p50PerWindow.add(p50);
			}
		}
	}

	@Test
	void theGeneratorWarmsUpInRoundsUntilNoTargetsP50IsStillFalling() {
		// the gateway's p50 falls from 9,576 to 803 to 578 µs, then 537 (7 % below 578:
		// settled); direct and the monolith settle in the third round
		warmupRounds(new long[] { 9_576, 409, 582 }, new long[] { 803, 247, 358 }, new long[] { 578, 241, 366 },
				new long[] { 537, 230, 342 });
		LatencyPhase.Measured m = run(settings(false, 5));
		assertThat(calls.subList(0, 12)).allMatch(c -> c.endsWith("@1000/1.0"));
		assertThat(calls.get(12)).isEqualTo("gateway@1000/2.0");
		assertThat(m.warmup().rounds()).isEqualTo(4);
		assertThat(m.warmup().stillFalling()).isEmpty();
		assertThat(m.warmup().capped()).isFalse();
		assertThat(m.warmup().describe()).startsWith("4 round(s) of one 1 s window per target")
			.contains("gateway 9,576 → 803 → 578 → 537; direct 409 → 247 → 241 → 230; monolith 582 → 358 → 366 → 342");
		assertThat(LatencyCurve.problems(m)).isEmpty();
	}

	@Test
	void aTargetWhosePrecedingRoundsWereNoFasterStopsTheWarmUpAfterTheTwoPlannedRounds() {
		// the second round within 10 % of the first for every target (slower is settled)
		warmupRounds(new long[] { 600, 250, 350 }, new long[] { 560, 260, 350 });
		LatencyPhase.Measured m = run(settings(false, 5));
		assertThat(m.warmup().rounds()).isEqualTo(2);
		assertThat(calls.get(6)).isEqualTo("gateway@1000/2.0");
	}

	@Test
	void aP50StillFallingAtTheCapIsMeasuredAndNamed() {
		warmupRounds(new long[] { 2_000, 250, 350 }, new long[] { 1_500, 250, 350 }, new long[] { 1_100, 250, 350 },
				new long[] { 800, 250, 350 });
		LatencyPhase.Measured m = run(settings(false, 5));
		assertThat(m.warmup().rounds()).isEqualTo(GeneratorWarmup.MAX_ROUNDS);
		assertThat(m.warmup().capped()).isTrue();
		assertThat(calls.get(12)).isEqualTo("gateway@1000/2.0");
		assertThat(LatencyCurve.problems(m)).singleElement()
			.asString()
			// the last two rounds' p50 of the target still falling,
			// as the histogram resolves them (2 significant digits)
			.matches(
					"latency generator: after 4 warm-up rounds the p50 was still falling \\(gateway 1,1\\d\\d → 8\\d\\d µs\\) — .*");
	}

	@Test
	void aRoundWithoutSamplesJudgesNothing() {
		assertThat(GeneratorWarmup.falling(List.of(Double.NaN, 300.0))).isFalse();
		assertThat(GeneratorWarmup.falling(List.of(300.0, Double.NaN))).isFalse();
		assertThat(GeneratorWarmup.falling(List.of(300.0))).isTrue();
		assertThat(GeneratorWarmup.falling(List.of(400.0, 300.0, 290.0))).isFalse();
		assertThat(GeneratorWarmup.falling(List.of(400.0, 300.0, 260.0))).isTrue();
	}

	@Test
	void aFractionalAnswerRateIsTheCurvesPointNotASecondPointBesideIt() {
		assertThat(LatencyPhase.rates(333.3, LEVELS_AROUND)).containsExactly(167.0, 333.3, 433.0, 533.0);
	}

	@Test
	void atLowRatesAWindowLastsLongEnoughForTheThousandSamplesAP99NeedsUpToTenSeconds() {
		run(settings(false, 0), 200, LEVELS_AROUND);
		// the answer rate: 1,000 samples and a 10 % margin at 200 req/s take 5.5 s,
		// so 6 (the usual window is 2 s)
		assertThat(calls).filteredOn(c -> c.contains("@200/")).hasSize(9).allMatch(c -> c.endsWith("/6.0"));
		// the curve: 100 req/s would need 11 s, capped at 10; 260 req/s 4.2 s, so 5;
		// 320 req/s fits the usual 4 s
		assertThat(calls).filteredOn(c -> !c.contains("@200/"))
			.containsExactly("gateway@100/10.0", "direct@100/10.0", "direct@260/5.0", "gateway@260/5.0",
					"gateway@320/4.0", "direct@320/4.0");
		calls.clear();
		run(settings(false, 0), 40, LEVELS_AROUND);
		// 1,100 samples at 40 req/s would take 27.5 s:
		// capped at 10 (that point prints no p99)
		assertThat(calls).filteredOn(c -> c.contains("@40/")).allMatch(c -> c.endsWith("/10.0"));
	}

	@Test
	void aWindowJustLongEnoughForAThousandSamplesIsStretchedForTheMargin() {
		// 334 req/s × 3 s = 1,002 arrivals: a window ended with 998 samples and no p99
		run(settings(false, 0), 334);
		assertThat(calls).filteredOn(c -> c.contains("@334/")).hasSize(9).allMatch(c -> c.endsWith("/4.0"));
	}

	@Test
	void onceTheAnswerRateIsKnownTheProgressLineIsPlannedFromTheWindowsThePhaseThenRuns() {
		// 200 req/s: answer windows and the 100 req/s curve windows stretched for a p99
		for (double answerRate : new double[] { 1000, 200 }) {
			calls.clear();
			windowSeconds.clear();
			secondsLeft.clear();
			LatencyPhase phase = phase(settings(false, 5));
			double planned = phase.seconds(targets(), answerRate);
			phase.run(targets(), answerRate, progress);
			double ran = windowSeconds.stream().mapToDouble(s -> s + LatencyPhase.WINDOW_OVERHEAD_SECONDS).sum();
			assertThat(planned).isEqualTo(ran);
			// before each window: the windows left, this one included
			double left = ran;
			for (int i = 0; i < windowSeconds.size(); i++) {
				assertThat(secondsLeft.get(i)).as(calls.get(i)).isEqualTo(Math.round(left));
				left -= windowSeconds.get(i) + LatencyPhase.WINDOW_OVERHEAD_SECONDS;
			}
		}
	}

	@Test
	void withRateTheStartOfRunFigureIsTheWindowsThePhaseRunsAndTheGeneratorsColdStart() {
		Settings at200 = TestSettings.bench()
			.rate(200)
			.latencyRepetitions(3)
			.jmeterProperties(Map.of("idMax", "50"))
			.catalog(catalog())
			.build();
		run(at200, 200);
		double ran = windowSeconds.stream().mapToDouble(s -> s + LatencyPhase.WINDOW_OVERHEAD_SECONDS).sum();
		assertThat(LatencyPhase.plannedSeconds(at200, new LatencyPlan(LatencyPlan.DEFAULT_LEVELS, 99), 3))
			.isEqualTo(Math.round(LatencyPhase.GENERATOR_START_SECONDS + ran));
	}

	@Test
	void aQuickRunSkipsTheWarmUpAndKeepsEveryWindowToOneSecond() {
		LatencyPhase.Measured m = run(settings(true, 2));
		assertThat(calls).hasSize(3 * 3 + 3 * 2).allMatch(c -> c.endsWith("/1.0"));
		assertThat(m.warmup()).isNull();
	}

	@Test
	void aGeneratorFailureBecomesAnEmptyWindowNamed() {
		LatencyPhase phase = new LatencyPhase(settings(true, 0), new LatencyPlan(new double[] { 1 }, 99),
				(target, request, rate, seconds) -> {
					throw new IllegalStateException("connection refused");
				});
		LatencyPhase.Measured m;
		try (Progress progress = new Progress(new PrintStream(new ByteArrayOutputStream()), 10)) {
			m = phase.run(List.of(t("gateway")), 1000, progress);
		}
		LatencyPhase.Windows w = m.byRate().get(1000.0).get("gateway");
		assertThat(w.errors()).hasSize(3).containsOnly("connection refused");
		assertThat(w.windows()).extracting(OpenLoad.Window::requests).containsExactly(0L, 0L, 0L);
	}

}
