package dev.gatewaylab.runner.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gatewaylab.runner.latency.OpenLoad;
import dev.gatewaylab.runner.run.Catalog;
import dev.gatewaylab.runner.run.Progress;
import dev.gatewaylab.runner.run.Settings;
import dev.gatewaylab.runner.run.Target;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Which windows the latency phase runs, in which order, at which rates (a stand-in
 * engine).
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
		return new Settings(8, 3, warmup, 120, 8, 0, false, 3, 0, List.of(), Map.of("idMax", "50"), null, null, 0, null,
				quick, null, false, catalog());
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
	 * The runner's JIT compile ms per window, in the order run (0 past the list); the
	 * stand-in's clock advances by each window's seconds.
	 */
	private final List<Double> compilePerWindow = new ArrayList<>();

	private double compiled;

	private long clockNanos;

	private LatencyPhase phase(Settings s) {
		return new LatencyPhase(s, new LatencyPlan(LatencyPlan.DEFAULT_LEVELS, 99),
				(target, request, rate, seconds) -> {
					assertThat(request.idMax()).isEqualTo(50);
					int i = calls.size();
					compiled += i < compilePerWindow.size() ? compilePerWindow.get(i) : 0;
					clockNanos += (long) (seconds * 1e9);
					calls.add(target.name() + "@" + Math.round(rate) + "/" + seconds);
					windowSeconds.add(seconds);
					secondsLeft.add(progress.secondsLeft());
					return LatencyCurveTests.window(rate, 100, 300, 900);
				}, () -> compiled, () -> clockNanos);
	}

	private static List<Target> targets() {
		return List.of(t("gateway"), t("direct"), t("monolith"));
	}

	@Test
	void everyTargetAtTheAnswerRateInAlternatingOrderThenTheHopAtTheOtherRates() {
		LatencyPhase.Measured m = run(settings(false, 5));
		assertThat(calls).containsExactly(
				// the engine's warm-up, discarded: two rounds of 1 s per target (the
				// runner compiled nothing)
				"gateway@1000/1.0", "direct@1000/1.0", "monolith@1000/1.0", "gateway@1000/1.0", "direct@1000/1.0",
				"monolith@1000/1.0",
				// the answer rate: 3 interleaved repetitions of --duration
				"gateway@1000/3.0", "direct@1000/3.0", "monolith@1000/3.0", "monolith@1000/3.0", "direct@1000/3.0",
				"gateway@1000/3.0", "gateway@1000/3.0", "direct@1000/3.0", "monolith@1000/3.0",
				// the curve: gateway and direct, windows for 10,000 samples within [2, 4]
				// s
				"gateway@500/4.0", "direct@500/4.0", "direct@1300/4.0", "gateway@1300/4.0", "gateway@1600/4.0",
				"direct@1600/4.0");
		assertThat(m.byRate().keySet()).containsExactly(500.0, 1000.0, 1300.0, 1600.0);
		assertThat(m.byRate().get(1000.0).get("gateway").windows()).hasSize(3);
		assertThat(m.warmup().rounds()).isEqualTo(2);
		assertThat(m.warmup().capped()).isFalse();
	}

	@Test
	void theEngineWarmsUpInRoundsUntilTheRunnerStopsCompiling() {
		// rounds of 3 s: 1,800 ms of compile (60 %), 1,200 (40 %), 600 (20 %), 90 (3 %)
		compilePerWindow
			.addAll(List.of(600.0, 600.0, 600.0, 400.0, 400.0, 400.0, 200.0, 200.0, 200.0, 30.0, 30.0, 30.0));
		LatencyPhase.Measured m = run(settings(false, 5));
		assertThat(calls.subList(0, 12)).allMatch(c -> c.endsWith("@1000/1.0"));
		assertThat(calls.get(12)).isEqualTo("gateway@1000/3.0");
		assertThat(m.warmup().rounds()).isEqualTo(4);
		assertThat(m.warmup().lastPercent()).isEqualTo(3.0);
		assertThat(m.warmup().capped()).isFalse();
		assertThat(m.warmup().describe()).startsWith("4 round(s) of one 1 s window per target")
			.contains("1,800 ms in 3.0 s, 1,200 ms in 3.0 s, 600 ms in 3.0 s, 90 ms in 3.0 s")
			.contains("last 3.0 %");
		assertThat(LatencyCurve.problems(m)).isEmpty();
	}

	@Test
	void aWarmRunnerStopsAfterTheTwoPlannedRounds() {
		// 1,800 ms of compile over the first 3 s round (60 %), 420 over the second (14 %)
		compilePerWindow.addAll(List.of(600.0, 600.0, 600.0, 140.0, 140.0, 140.0));
		LatencyPhase.Measured m = run(settings(false, 5));
		assertThat(m.warmup().rounds()).isEqualTo(2);
		assertThat(calls.get(6)).isEqualTo("gateway@1000/3.0");
	}

	@Test
	void anEngineStillCompilingAtTheCapIsMeasuredAndNamed() {
		for (int i = 0; i < 12; i++) {
			compilePerWindow.add(500.0);
		}
		LatencyPhase.Measured m = run(settings(false, 5));
		assertThat(m.warmup().rounds()).isEqualTo(LatencyPhase.WARMUP_MAX_ROUNDS);
		assertThat(m.warmup().capped()).isTrue();
		assertThat(calls.get(12)).isEqualTo("gateway@1000/3.0");
		assertThat(LatencyCurve.problems(m)).singleElement()
			.asString()
			.startsWith("latency engine: still compiling after 4 warm-up rounds (the runner's JIT 50.0 % of the last");
	}

	@Test
	void aFractionalAnswerRateIsTheCurvesPointNotASecondPointBesideIt() {
		assertThat(LatencyPhase.rates(333.3, LatencyPlan.DEFAULT_LEVELS)).containsExactly(167.0, 333.3, 433.0, 533.0);
	}

	@Test
	void atLowRatesAWindowLastsLongEnoughForTheThousandSamplesAP99NeedsUpToTenSeconds() {
		run(settings(false, 0), 200);
		// the answer rate: 1,000 samples and a 10 % margin at 200 req/s take 5.5 s, so 6
		// (--duration is 3)
		assertThat(calls).filteredOn(c -> c.contains("@200/")).hasSize(9).allMatch(c -> c.endsWith("/6.0"));
		// the curve: 100 req/s would need 11 s, capped at 10; 260 req/s 4.2 s, so 5;
		// 320 req/s fits the usual 4 s
		assertThat(calls).filteredOn(c -> !c.contains("@200/"))
			.containsExactly("gateway@100/10.0", "direct@100/10.0", "direct@260/5.0", "gateway@260/5.0",
					"gateway@320/4.0", "direct@320/4.0");
		calls.clear();
		run(settings(false, 0), 40);
		// 1,100 samples at 40 req/s would take 27.5 s: capped at 10 (that point prints no
		// p99)
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
	void withRateTheStartOfRunFigureIsTheWindowsThePhaseRunsAndTheEnginesColdStart() {
		Settings at200 = new Settings(8, 3, 5, 120, 8, 200, false, 3, 0, List.of(), Map.of("idMax", "50"), null, null,
				0, null, false, null, false, catalog());
		run(at200, 200);
		double ran = windowSeconds.stream().mapToDouble(s -> s + LatencyPhase.WINDOW_OVERHEAD_SECONDS).sum();
		assertThat(LatencyPhase.plannedSeconds(at200, new LatencyPlan(LatencyPlan.DEFAULT_LEVELS, 99), 3))
			.isEqualTo(Math.round(LatencyPhase.ENGINE_START_SECONDS + ran));
	}

	@Test
	void aQuickRunSkipsTheWarmUpAndKeepsEveryWindowToOneSecond() {
		LatencyPhase.Measured m = run(settings(true, 2));
		assertThat(calls).hasSize(3 * 3 + 3 * 2).allMatch(c -> c.endsWith("/1.0"));
		assertThat(m.warmup()).isNull();
	}

	@Test
	void anEngineFailureBecomesAnEmptyWindowNamed() {
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
