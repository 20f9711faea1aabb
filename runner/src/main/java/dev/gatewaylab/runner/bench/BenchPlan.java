package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.run.Settings;

/**
 * How long a bench's stages should take, for the progress line: warm-up (about 10 windows
 * per target, 1 with --quick; "warm until steady" may take more), the closed-model
 * repetitions, then the open-model phases (JMeter at equal load, the latency engine). The
 * run plans again at each stage's end with what it has learnt
 * ({@link dev.gatewaylab.runner.run.Progress#replan}).
 *
 * @param restarts a variant experiment: a restart and a warm-up per run, no open phases
 * @param toggle a run-time toggle experiment ({@link ToggleRuns} plans it)
 */
record BenchPlan(Settings settings, LatencyPlan latencyPlan, boolean restarts, boolean toggle) {

	/** Seconds a load-generator run takes beyond its load (engine start and stop). */
	static final long RUN_OVERHEAD_SECONDS = 1;

	long total() {
		if (this.toggle) {
			return ToggleRuns.plannedSeconds(this.settings, warmupWindows());
		}
		return warmupSeconds() + measureSeconds() + openSeconds();
	}

	private long warmupWindows() {
		return this.settings.quick() ? 1 : 10;
	}

	/** The warm-up's planning figure; with restarts, a restart and a warm-up per run. */
	long warmupSeconds() {
		int n = this.settings.targets().size();
		long windows = warmupWindows();
		return this.restarts
				? (long) this.settings.repetitions() * n
						* (windows * (this.settings.warmupSeconds() + RUN_OVERHEAD_SECONDS) + 30)
				: n * windows * (this.settings.warmupSeconds() + RUN_OVERHEAD_SECONDS);
	}

	/** The closed-model repetitions. */
	long measureSeconds() {
		return (long) this.settings.repetitions() * this.settings.targets().size()
				* (this.settings.durationSeconds() + RUN_OVERHEAD_SECONDS);
	}

	/**
	 * The open-model phases after the repetitions: equal load, then the latency engine.
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

	/** JMeter at equal load: its discarded window and repetitions per target. */
	long equalLoadSeconds() {
		if (this.settings.quick()) {
			return 0;
		}
		int n = this.settings.targets().size();
		return (EqualLoad.warms(this.settings) ? n * (EqualLoad.WARMUP_SECONDS + 2 + RUN_OVERHEAD_SECONDS) : 0)
				+ (long) this.settings.latencyRepetitions() * n
						* (this.settings.durationSeconds() + RUN_OVERHEAD_SECONDS);
	}

}
