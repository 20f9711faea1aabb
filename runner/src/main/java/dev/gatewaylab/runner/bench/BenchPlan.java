package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.curve.LatencyPhase;
import dev.gatewaylab.runner.curve.LatencyPlan;
import dev.gatewaylab.runner.experiment.Switchback;
import dev.gatewaylab.runner.run.Progress;
import dev.gatewaylab.runner.run.Settings;

/**
 * How long a bench's stages should take, for the progress line: warm-up (about 10 windows
 * per target, 1 with --quick; "warm until steady" may take more), the closed-model
 * repetitions, then the open-model phases (JMeter at equal load, the latency generator).
 * The run plans again at each stage's end with what it has learnt
 * ({@link dev.gatewaylab.runner.run.Progress#replan}).
 *
 * @param restarts a variant experiment: a restart and a warm-up per run, no open phases
 * @param toggle a run-time toggle experiment ({@link ToggleRuns} plans it)
 */
record BenchPlan(Settings settings, LatencyPlan latencyPlan, boolean restarts, boolean toggle) {

	/**
	 * Seconds a load-generator run takes beyond its load (engine start and stop): 0.1–0.2
	 * measured (24 closed-model runs of 3 s took 76 s).
	 */
	static final double RUN_OVERHEAD_SECONDS = 0.2;

	/** Seconds planned for restarting a service in an experiment's variant. */
	static final long RESTART_SECONDS = 30;

	long total() {
		return (this.restarts || this.toggle) ? units() * unitSeconds()
				: warmupSeconds() + measureSeconds() + openSeconds();
	}

	private long warmupWindows() {
		return this.settings.quick() ? 1 : 10;
	}

	/** The warm-up's planning figure (without restarts: every target once). */
	long warmupSeconds() {
		return Math.round(this.settings.targets().size() * warmupWindows()
				* (this.settings.warmupSeconds() + RUN_OVERHEAD_SECONDS));
	}

	/** The closed-model repetitions. */
	long measureSeconds() {
		return Math.round(this.settings.repetitions() * this.settings.targets().size()
				* (this.settings.durationSeconds() + RUN_OVERHEAD_SECONDS));
	}

	/**
	 * An experiment that restarts a JVM per run: how many runs (a restart, a warm-up and
	 * a measurement each) — per repetition one per variant, or per pair with a toggle.
	 */
	int units() {
		int n = this.settings.targets().size();
		return this.settings.repetitions() * (this.toggle ? n / 2 : n);
	}

	/** One such run's planning figure. */
	long unitSeconds() {
		return Math.round(warmupWindows() * (this.settings.warmupSeconds() + RUN_OVERHEAD_SECONDS)) + RESTART_SECONDS
				+ unitMeasureSeconds();
	}

	/**
	 * One such run's measurement: a repetition, or a {@link Switchback} run with its two
	 * settling segments.
	 */
	long unitMeasureSeconds() {
		int d = this.settings.durationSeconds();
		return this.toggle ? d + (long) Math.ceil(2 * Switchback.segmentSeconds(d)) + 3
				: Math.round(d + RUN_OVERHEAD_SECONDS);
	}

	/** The remaining time of an experiment that restarts a JVM per run. */
	UnitCountdown countdown(Progress progress) {
		return new UnitCountdown(progress, System::nanoTime, units(), unitSeconds(), unitMeasureSeconds());
	}

	/**
	 * The open-model phases after the repetitions: equal load, then the latency
	 * generator.
	 */
	long openSeconds() {
		return hasOpenPhases()
				? equalLoadSeconds()
						+ LatencyPhase.plannedSeconds(this.settings, this.latencyPlan, this.settings.targets().size())
				: 0;
	}

	boolean hasOpenPhases() {
		return !this.restarts && this.settings.latencyRepetitions() > 0;
	}

	/** JMeter at equal load: its discarded window and measured window per target. */
	long equalLoadSeconds() {
		if (this.settings.quick()) {
			return 0;
		}
		int n = this.settings.targets().size();
		return Math.round((EqualLoad.warms(this.settings) ? n * (EqualLoad.WARMUP_SECONDS + RUN_OVERHEAD_SECONDS) : 0)
				+ n * (this.settings.durationSeconds() + RUN_OVERHEAD_SECONDS));
	}

}
