package dev.gatewaylab.runner.curve;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The latency generator's warm-up: rounds of one discarded {@value #WINDOW_SECONDS} s
 * window per target at the answer rate, at least {@value #MIN_ROUNDS}, until no target's
 * p50 is still falling ({@value #STILL_FALLING_PERCENT} %), at most {@value #MAX_ROUNDS}.
 * Per target, its p50 in µs per round (NaN: no samples).
 */
record GeneratorWarmup(Map<String, List<Double>> p50Us) {

	/** Seconds of a discarded warm-up window. */
	static final double WINDOW_SECONDS = 1;

	/**
	 * Warm-up rounds at least. The generator's code runs in the runner's JVM and is first
	 * used in this phase, and the targets meet an open-model load on fresh connections:
	 * in the first round of 1 s per target at 3,634 req/s the gateway's p50 was 9.6 ms,
	 * in the second 0.80, in the third 0.58, then 0.54. With one round only, the first
	 * measured repetition's added p50 stood 40–80 % above the others' at half the slowest
	 * TPS, 2–35 % at a sixth of it (docs/performance.md).
	 */
	static final int MIN_ROUNDS = 2;

	/** Warm-up rounds at most: past them the phase measures and says so. */
	static final int MAX_ROUNDS = 4;

	/**
	 * A target's p50 is still falling while its last round's is more than this share, in
	 * %, below the best of its earlier rounds; the generator is warm when no target's is.
	 * Window-to-window, a warm target's p50 moves by up to ≈ 10 %.
	 */
	static final double STILL_FALLING_PERCENT = 10;

	int rounds() {
		return this.p50Us.values().stream().mapToInt(List::size).max().orElse(0);
	}

	/** The targets whose p50 is still falling after the last round. */
	List<String> stillFalling() {
		return this.p50Us.entrySet().stream().filter(e -> falling(e.getValue())).map(Map.Entry::getKey).toList();
	}

	/**
	 * Whether the last round's p50 is more than {@value #STILL_FALLING_PERCENT} % below
	 * the best of the earlier rounds' (a round without samples judges nothing).
	 */
	static boolean falling(List<Double> p50s) {
		if (p50s.size() < 2) {
			return true;
		}
		double last = p50s.get(p50s.size() - 1);
		double best = p50s.subList(0, p50s.size() - 1)
			.stream()
			.mapToDouble(Double::doubleValue)
			.filter(v -> !Double.isNaN(v))
			.min()
			.orElse(Double.NaN);
		return last < best * (1 - STILL_FALLING_PERCENT / 100);
	}

	/**
	 * The targets still falling with their last two rounds' p50, e.g.
	 * {@code gateway 558 → 486 µs}.
	 */
	String stillFallingLastRounds() {
		return String.join("; ", stillFalling().stream().map(target -> {
			List<Double> p50s = this.p50Us.get(target);
			return target + " " + trail(p50s.subList(Math.max(0, p50s.size() - 2), p50s.size())) + " µs";
		}).toList());
	}

	/** Whether it stopped at the cap with a target's p50 still falling. */
	boolean capped() {
		return rounds() >= MAX_ROUNDS && !stillFalling().isEmpty();
	}

	/** run.json's and the report's account of it. */
	String describe() {
		String perTarget = String.join("; ",
				this.p50Us.entrySet().stream().map(e -> e.getKey() + " " + trail(e.getValue())).toList());
		return String.format(Locale.ROOT,
				"%d round(s) of one %.0f s window per target at the answer rate, discarded; p50 µs per round: %s "
						+ "(rule: at least %d rounds, until no target's p50 is more than %.0f %% below its best "
						+ "earlier round's, at most %d)",
				rounds(), WINDOW_SECONDS, perTarget, MIN_ROUNDS, STILL_FALLING_PERCENT, MAX_ROUNDS);
	}

	/** p50s in µs, round after round: {@code 1,074 → 607 → 529}. */
	private static String trail(List<Double> p50s) {
		return String.join(" → ", p50s.stream().map(v -> String.format(Locale.ROOT, "%,.0f", v)).toList());
	}

}
