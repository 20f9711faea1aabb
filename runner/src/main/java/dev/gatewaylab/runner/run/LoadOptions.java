package dev.gatewaylab.runner.run;

import picocli.CommandLine.Option;

/**
 * The load options bench, sweep and soak share, declared once: warm-up, its cap, the
 * closed-model threads, seconds per measured window and the open-model arrival rate. A
 * value the user did not give is null; each command supplies its own default through the
 * accessors, which also check the value (exit 2 on bad input).
 */
public class LoadOptions {

	@Option(names = "--warmup",
			description = "Warm-up window in seconds, discarded: windows repeat until the target's JVMs stop compiling and its TPS stops rising: no more than 5 %% above its best earlier window (default 5; bench --quick: one window of 2 s; 0 = no warm-up).")
	Integer warmup;

	@Option(names = "--warmup-max",
			description = "Cap on one target's warm-up in seconds; when hit, the report warns (default 120).")
	Integer warmupMax;

	@Option(names = "--threads",
			description = "Closed-model threads: bench's measured repetitions, and the warm-up of every command (default 8; sweep: its lowest level).")
	Integer threads;

	@Option(names = "--duration",
			description = "Seconds per measured window: a bench repetition (default 3, --quick 2; with --experiment 5, --quick 3; a switchback's 60, --quick 4), a sweep level (default 10).")
	Integer duration;

	@Option(names = "--rate",
			description = "Arrival rate in req/s of the open model: bench's equal-load phase (default: a fifth of the slowest target's measured TPS), soak's steady load (default: 70 %% of the open-model max).")
	Double rate;

	public int warmup(int dflt) {
		return nonNegative("--warmup", warmup, dflt);
	}

	public int warmupMax(int dflt) {
		return positive("--warmup-max", warmupMax, dflt);
	}

	public int threads(int dflt) {
		return positive("--threads", threads, dflt);
	}

	public int duration(int dflt) {
		return positive("--duration", duration, dflt);
	}

	/** Whether --duration was given. */
	public boolean durationGiven() {
		return duration != null;
	}

	/** Whether --rate was given. */
	public boolean rateGiven() {
		return rate != null;
	}

	/**
	 * The --rate given, checked to be ≥ 0 ({@code zeroAllowed}: 0 means "choose for me")
	 * or > 0; {@code dflt} when not given.
	 */
	public double rate(double dflt, boolean zeroAllowed) {
		if (rate == null) {
			return dflt;
		}
		if (rate.isNaN() || rate.isInfinite() || rate < 0 || (!zeroAllowed && rate == 0)) {
			throw new LabException("invalid --rate " + rate + ": must be " + (zeroAllowed ? "≥ 0" : "> 0 req/s"),
					zeroAllowed ? "use e.g. --rate 200, or 0 for the default"
							: "use e.g. --rate 300, or leave it out for 70 % of the measured max");
		}
		return rate;
	}

	public static int positive(String name, Integer value, int dflt) {
		int v = value == null ? dflt : value;
		if (v < 1) {
			throw new LabException("invalid " + name + " " + v + ": must be ≥ 1", "pass a positive whole number");
		}
		return v;
	}

	public static int nonNegative(String name, Integer value, int dflt) {
		int v = value == null ? dflt : value;
		if (v < 0) {
			throw new LabException("invalid " + name + " " + v + ": must be ≥ 0", "pass 0 or a positive whole number");
		}
		return v;
	}

}
