package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.curve.LatencyPlan;
import dev.gatewaylab.runner.run.Load;
import dev.gatewaylab.runner.run.Progress;
import dev.gatewaylab.runner.run.Settings;
import dev.gatewaylab.runner.stats.Aggregate;
import dev.gatewaylab.runner.stats.Stats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * JMeter's latency at equal load (whole ms, kept beside the latency generator's µs
 * figures for one release): every target at the same open-model arrival rate (--rate, or
 * half the slowest target's closed-model TPS) for one window of --duration s, which ends
 * when its last arrival has completed. The answer's latency comes from the latency
 * generator's interleaved repetitions, so JMeter gets one window per target, not
 * --latency-repetitions of them (≈ 20 s of a default run). Before it, one discarded
 * window per target at that rate: it is the first time in a run that anything opens a
 * connection per request (the runner's thread per arrival, each target's connection
 * set-up), a path the keep-alive warm-up never exercises — without it the phase's first
 * target ran 13–127 ms at p99 for its first half second, 7–12 ms after.
 */
final class EqualLoad {

	/**
	 * Seconds of discarded open-model load per target before the measured repetitions.
	 */
	static final int WARMUP_SECONDS = 2;

	private final Settings s;

	private final Path dir;

	EqualLoad(Settings s, Path dir) {
		this.s = s;
		this.dir = dir;
	}

	/**
	 * The phase is warmed too, unless the run warms nothing (--warmup 0) or is a --quick
	 * smoke run.
	 */
	static boolean warms(Settings s) {
		return s.warmupSeconds() > 0 && !s.quick();
	}

	/**
	 * The default rate's share of the slowest target's TPS. JMeter's open model starts a
	 * thread per arrival, and at half the gateway's TPS it could not keep up on two cores
	 * (2,541–3,287 of 3,403–3,992 req/s sent, the gateway's p50 153–253 ms in its
	 * whole-ms table); the latency generator's curve goes on to 4 × this rate, 80 % of
	 * that TPS ({@link LatencyPlan#DEFAULT_LEVELS}).
	 */
	static final double SHARE_OF_SLOWEST_TPS = 0.2;

	/**
	 * The phase's rate, the same for every target: --rate, else
	 * {@link #SHARE_OF_SLOWEST_TPS} of the slowest target's closed-model TPS (at least 1)
	 * — its TPS as the report gives it, the mean over its repetitions. Not its samples
	 * over the span from its first repetition to its last: the repetitions are
	 * interleaved, so that span holds the other targets' windows too (with three targets
	 * it put the rate at a sixth of the slowest TPS).
	 */
	static double rate(Settings s, Collection<TargetRun> runs) {
		return s.rate() > 0 ? s.rate()
				: Math.max(1,
						Math.floor(SHARE_OF_SLOWEST_TPS * runs.stream()
							.mapToDouble(r -> Stats.mean(r.tpsReps()))
							.filter(tps -> !Double.isNaN(tps))
							.min()
							.orElse(0)));
	}

	/**
	 * Runs the phase at {@code rate} over {@code targets} in that order; returns each
	 * target's open-model window (a list of one, as {@link TargetRun#withOpen} takes).
	 */
	Map<String, List<Aggregate>> run(Load load, Progress progress, double rate, List<TargetRun> targets)
			throws IOException, InterruptedException {
		Map<String, List<Aggregate>> open = new LinkedHashMap<>();
		if (warms(s)) {
			for (TargetRun r : targets) {
				progress.phase(String.format(Locale.ROOT, "equal load warm-up %s %.0f req/s (discarded)",
						r.target().name(), rate), WARMUP_SECONDS);
				Path jtl = dir.resolve("raw").resolve(r.target().name() + "-open-warmup.discarded");
				load.runOpen(r.target(), rate, WARMUP_SECONDS, jtl);
				Files.deleteIfExists(jtl);
			}
		}
		for (TargetRun r : targets) {
			progress.phase(String.format(Locale.ROOT, "equal load %s %.0f req/s", r.target().name(), rate),
					s.durationSeconds());
			Path jtl = dir.resolve("raw").resolve(r.target().name() + "-open1.jtl");
			load.runOpen(r.target(), rate, s.durationSeconds(), jtl);
			open.put(r.target().name(),
					List.of(Load.readOrEmpty(r.target(), jtl, "open-model rep 1", List.of()).aggregate()));
		}
		return open;
	}

}
