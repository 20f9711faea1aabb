package dev.gatewaylab.runner.warmup;

import java.util.List;
import java.util.Locale;

/**
 * Decides from warm-up windows whether a target has reached steady state: the JVMs
 * serving it (and the runner's) have stopped compiling — since the previous reading each
 * one's JIT compile time grew by less than {@value #COMPILE_SHARE_PERCENT} % of the wall
 * time between the readings (a target warmed in turn with others is read once per round:
 * its JVMs keep compiling in the background while the others get the load) — and the
 * throughput has stopped rising: the last window is no more than
 * {@value #TPS_TOLERANCE_PERCENT} % above the best window before it. A fall is not a sign
 * of warming: on a shared machine two steady 5 s windows often differ by more than 10 %,
 * and a rule that wanted the last two to agree held targets for windows of noise after
 * their JIT had finished. Without JVM metrics (nginx, a remote target) the throughput is
 * the only signal, and the last two windows must also agree within the same tolerance.
 * Pure: the windows are measured elsewhere.
 */
public final class SteadyState {

	public static final double COMPILE_SHARE_PERCENT = 2;

	public static final double TPS_TOLERANCE_PERCENT = 5;

	/**
	 * One warm-up window: its length, throughput, and the largest compile-time growth of
	 * any JVM since the target's previous reading (ms; NaN when no JVM's compile time
	 * could be read, e.g. nginx or a remote target) with that JVM's name, over
	 * {@code sinceSeconds} of wall time (the window alone when the target is warmed by
	 * itself).
	 */
	record Window(double seconds, double tps, double compileMs, String busiestJvm, double sinceSeconds) {

		Window(double seconds, double tps, double compileMs, String busiestJvm) {
			this(seconds, tps, compileMs, busiestJvm, seconds);
		}

		double compileSharePercent() {
			return Double.isNaN(compileMs) ? Double.NaN : 100 * compileMs / (sinceSeconds * 1000);
		}
	}

	/**
	 * The decision after a window: warm, keep warming, or stop at the cap (not warm); and
	 * which rule was not met yet.
	 */
	record Verdict(State state, String reason, boolean compiling, boolean tpsMoving) {

		Verdict(State state, String reason) {
			this(state, reason, false, false);
		}

	}

	enum State {

		WARM, WARMING, CAPPED

	}

	private SteadyState() {
	}

	static Verdict judge(List<Window> windows, double elapsedSeconds, double capSeconds) {
		if (windows.size() < 2) {
			return elapsedSeconds >= capSeconds
					? new Verdict(State.CAPPED, "cap of " + fmt(capSeconds) + " s reached after one window")
					: new Verdict(State.WARMING, "one window so far");
		}
		Window last = windows.get(windows.size() - 1);
		Window previous = windows.get(windows.size() - 2);
		double best = windows.subList(0, windows.size() - 1).stream().mapToDouble(Window::tps).max().orElse(0);
		double rise = risePercent(best, last.tps());
		double spread = tpsSpreadPercent(previous.tps(), last.tps());
		double share = last.compileSharePercent();
		boolean noJvmMetrics = Double.isNaN(share);
		boolean tpsSteady = rise <= TPS_TOLERANCE_PERCENT && (!noJvmMetrics || spread <= TPS_TOLERANCE_PERCENT);
		boolean compiled = noJvmMetrics || share < COMPILE_SHARE_PERCENT;
		String compile = noJvmMetrics ? "compile time unknown (no JVM metrics), decided on TPS only"
				: String.format(Locale.ROOT, "JIT compile +%.0f ms in the last %s s (%.1f %% of wall time, %s)",
						last.compileMs(), fmt(Math.round(last.sinceSeconds() * 10) / 10.0), share, last.busiestJvm());
		String tps = noJvmMetrics
				? String.format(Locale.ROOT,
						"last two windows %,.0f and %,.0f req/s (%.1f %% apart), best before %,.0f", previous.tps(),
						last.tps(), spread, best)
				: String.format(Locale.ROOT, "last window %,.0f req/s, best before %,.0f (%+.1f %%)", last.tps(), best,
						rise);
		if (tpsSteady && compiled) {
			return new Verdict(State.WARM, "steady: " + compile + "; " + tps);
		}
		String why = (compiled ? "" : "still compiling: " + compile + (tpsSteady ? "" : "; "))
				+ (tpsSteady ? "" : (noJvmMetrics ? "throughput still moving: " : "throughput still rising: ") + tps);
		if (elapsedSeconds >= capSeconds) {
			return new Verdict(State.CAPPED, "cap of " + fmt(capSeconds) + " s reached, " + why, !compiled, !tpsSteady);
		}
		return new Verdict(State.WARMING, why, !compiled, !tpsSteady);
	}

	/** How far {@code last} is above {@code best}, as a percentage of {@code best}. */
	static double risePercent(double best, double last) {
		return best <= 0 ? (last > 0 ? Double.POSITIVE_INFINITY : 0) : 100 * (last - best) / best;
	}

	/** |a − b| as a percentage of the larger one; 0 when both are 0. */
	static double tpsSpreadPercent(double a, double b) {
		double max = Math.max(Math.abs(a), Math.abs(b));
		return max == 0 ? 0 : 100 * Math.abs(a - b) / max;
	}

	private static String fmt(double seconds) {
		return seconds == Math.rint(seconds) ? String.format(Locale.ROOT, "%.0f", seconds)
				: String.format(Locale.ROOT, "%.1f", seconds);
	}

}
