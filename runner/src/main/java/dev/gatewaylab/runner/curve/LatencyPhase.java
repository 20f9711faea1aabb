package dev.gatewaylab.runner.curve;

import dev.gatewaylab.runner.latency.OpenLoad;
import dev.gatewaylab.runner.run.PlanRequest;
import dev.gatewaylab.runner.run.Progress;
import dev.gatewaylab.runner.run.Settings;
import dev.gatewaylab.runner.run.Target;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Latency across the load range, measured by the latency generator ({@link OpenLoad}):
 * the generator's warm-up (rounds of a discarded window per target,
 * {@link GeneratorWarmup}), then the answer rate — every target, interleaved repetitions,
 * so what the hop adds there has an interval — then the other rates of the curve for the
 * hop's two targets (gateway and direct; every target when the run has not both), each
 * target at the same rates, in alternating order. Rates are multiples of the answer rate
 * ({@code --latency-levels}); by default 1, 2, 3 and 4 × a fifth of the slowest target's
 * closed-model TPS = 20, 40, 60 and 80 % of it.
 */
public final class LatencyPhase {

	/**
	 * Seconds a window takes beyond its load, about: the generator opens its connections
	 * before the first arrival and waits for the last arrival's response (measured: 0.1 s
	 * for a 2 s window, 0.3 s for a 1 s warm-up window).
	 */
	static final double WINDOW_OVERHEAD_SECONDS = 0.2;

	/** Seconds the generator's first window takes beyond the others (a cold start). */
	static final double GENERATOR_START_SECONDS = 3;

	private final Settings s;

	private final LatencyPlan plan;

	/** Runs one window; the latency generator by default, a stand-in in tests. */
	public interface Generator {

		OpenLoad.Window run(Target t, PlanRequest request, double rate, double seconds);

	}

	private final Generator generator;

	public LatencyPhase(Settings s, LatencyPlan plan, Generator generator) {
		this.s = s;
		this.plan = plan;
		this.generator = generator;
	}

	/** Every window a target ran at one rate, and the errors that stopped a window. */
	record Windows(List<OpenLoad.Window> windows, List<String> errors) {
	}

	/**
	 * What the phase measured: per rate (ascending), per target, its windows; and how the
	 * generator warmed up (null when it did not).
	 */
	public record Measured(double answerRate, Map<Double, Map<String, Windows>> byRate, List<String> skipped,
			GeneratorWarmup warmup) {
	}

	/**
	 * A planning figure for the start of a run: a cold start of the generator, its
	 * warm-up, the answer rate's repetitions and the curve's windows, each
	 * {@value #WINDOW_OVERHEAD_SECONDS} s longer than its load. The answer rate is known
	 * at the start only from --rate: then the windows are those {@link #run} will run,
	 * stretched where a p99 needs it. Otherwise it is a fifth of the slowest target's
	 * closed-model TPS, measured later in the run, and the figure takes the answer rate's
	 * windows at {@value WindowLengths#ANSWER_SECONDS} s and the curve's at 3 s, their
	 * mean length at the usual rates (4, 3 and 2 s); at low rates the windows stretch,
	 * and {@link #run} plans again once the rate is known ({@link #seconds}).
	 */
	public static long plannedSeconds(Settings s, LatencyPlan plan, int targets) {
		LatencyPhase phase = new LatencyPhase(s, plan, null);
		double rate = s.rate();
		double warm = phase.warms()
				? GeneratorWarmup.MIN_ROUNDS * targets * (GeneratorWarmup.WINDOW_SECONDS + WINDOW_OVERHEAD_SECONDS) : 0;
		double answer = Math.max(1, s.latencyRepetitions()) * targets
				* ((rate > 0 ? WindowLengths.answer(s.quick(), rate) : s.quick() ? 1 : WindowLengths.ANSWER_SECONDS)
						+ WINDOW_OVERHEAD_SECONDS);
		int curveTargets = Math.min(targets, 2);
		double curve = 0;
		if (rate > 0) {
			for (double r : phase.curveRates(rate)) {
				curve += curveTargets * (WindowLengths.curve(s.quick(), r) + WINDOW_OVERHEAD_SECONDS);
			}
		}
		else {
			curve = (plan.levels().length - 1) * curveTargets * ((s.quick() ? 1 : 3) + WINDOW_OVERHEAD_SECONDS);
		}
		return Math.round(GENERATOR_START_SECONDS + warm + answer + curve);
	}

	/**
	 * The curve's rates: each level × the answer rate, rounded to whole req/s, at least
	 * 1; a level that rounds to the answer rate's own whole req/s is the answer rate as
	 * given (a fractional --rate gets no second point beside it).
	 */
	static List<Double> rates(double answerRate, double[] levels) {
		List<Double> out = new ArrayList<>();
		for (double l : levels) {
			double r = Math.max(1, Math.round(answerRate * l));
			if (r == Math.max(1, Math.round(answerRate))) {
				r = answerRate;
			}
			if (!out.contains(r)) {
				out.add(r);
			}
		}
		Collections.sort(out);
		return out;
	}

	/** The curve's rates other than the answer rate, ascending. */
	private List<Double> curveRates(double answerRate) {
		return rates(answerRate, plan.levels()).stream().filter(r -> r != answerRate).toList();
	}

	/**
	 * Whether the phase begins with the generator's warm-up, rounds of discarded windows.
	 */
	private boolean warms() {
		return !s.quick() && s.warmupSeconds() > 0;
	}

	/**
	 * One window the phase runs: its progress line, target, rate and seconds; a window of
	 * the generator's warm-up ({@code warmupRound} > 0) is discarded, not recorded.
	 */
	private record Planned(String phase, Target target, double rate, double seconds, int warmupRound) {

		double wallSeconds() {
			return seconds + WINDOW_OVERHEAD_SECONDS;
		}

		boolean discarded() {
			return warmupRound > 0;
		}

	}

	/** The targets the generator can measure: those whose plan declares a request. */
	private List<Target> measurable(List<Target> targets) {
		return targets.stream().filter(t -> request(t) != null).toList();
	}

	/** One warm-up round: a discarded window per target at the answer rate. */
	private static List<Planned> warmupRound(List<Target> measured, double answerRate, int round) {
		List<Planned> out = new ArrayList<>();
		for (Target t : measured) {
			out.add(new Planned(String.format(Locale.ROOT, "latency generator warm-up %d %s %.0f req/s (discarded)",
					round, t.name(), answerRate), t, answerRate, GeneratorWarmup.WINDOW_SECONDS, round));
		}
		return out;
	}

	/**
	 * Every window the phase plans at {@code answerRate}, in order: the generator's
	 * warm-up ({@value GeneratorWarmup#MIN_ROUNDS} rounds; {@link #run} may add rounds),
	 * the answer rate's interleaved repetitions, then the curve's other rates for the
	 * hop's two targets and any other gateway beside it (every target when the run has
	 * not both).
	 */
	private List<Planned> schedule(List<Target> measured, double answerRate) {
		List<Target> hop = measured.stream()
			.filter(t -> t.name().equals("gateway") || t.name().equals("direct"))
			.toList();
		List<Target> curve = hop.size() == 2
				? measured.stream().filter(t -> hop.contains(t) || LatencyCurve.OTHER_HOPS.contains(t.name())).toList()
				: measured;
		List<Planned> out = new ArrayList<>();
		if (warms()) {
			for (int round = 1; round <= GeneratorWarmup.MIN_ROUNDS; round++) {
				out.addAll(warmupRound(measured, answerRate, round));
			}
		}
		int reps = Math.max(1, s.latencyRepetitions());
		double answerSeconds = WindowLengths.answer(s.quick(), answerRate);
		for (int rep = 1; rep <= reps; rep++) {
			for (Target t : ordered(measured, rep)) {
				out.add(new Planned(
						String.format(Locale.ROOT, "latency %s %.0f req/s rep %d/%d", t.name(), answerRate, rep, reps),
						t, answerRate, answerSeconds, 0));
			}
		}
		int i = 0;
		for (double rate : curveRates(answerRate)) {
			for (Target t : ordered(curve, ++i)) {
				out.add(new Planned(String.format(Locale.ROOT, "latency %s %.0f req/s", t.name(), rate), t, rate,
						WindowLengths.curve(s.quick(), rate), 0));
			}
		}
		return out;
	}

	/**
	 * Seconds the phase takes at {@code answerRate}: the windows {@link #run} runs, each
	 * {@value #WINDOW_OVERHEAD_SECONDS} s longer than its load.
	 */
	public double seconds(List<Target> targets, double answerRate) {
		return schedule(measurable(targets), answerRate).stream().mapToDouble(Planned::wallSeconds).sum();
	}

	/**
	 * Runs the phase at {@code answerRate}. Before each window the progress line is
	 * planned again from the windows left ({@link #seconds}); a warm-up round beyond the
	 * planned ones adds its windows to them.
	 */
	public Measured run(List<Target> targets, double answerRate, Progress progress) {
		Map<Double, Map<String, Windows>> byRate = new TreeMap<>();
		List<Target> measured = measurable(targets);
		List<String> skipped = new ArrayList<>();
		for (Target t : targets) {
			if (!measured.contains(t)) {
				skipped.add(t.name() + " (plan " + t.plan() + " declares no request in lab.properties)");
			}
		}
		List<Planned> schedule = new ArrayList<>(schedule(measured, answerRate));
		double left = schedule.stream().mapToDouble(Planned::wallSeconds).sum();
		Map<String, List<Double>> warmupP50Us = new LinkedHashMap<>();
		GeneratorWarmup warmup = new GeneratorWarmup(warmupP50Us);
		for (int i = 0; i < schedule.size(); i++) {
			Planned w = schedule.get(i);
			double after = left - w.wallSeconds();
			progress.replan(Math.round(left), Math.round(after));
			progress.phase(w.phase(), (long) w.seconds());
			if (w.discarded()) {
				OpenLoad.Window discarded = window(w.target(), w.rate(), w.seconds());
				warmupP50Us.computeIfAbsent(w.target().name(), n -> new ArrayList<>())
					.add(discarded.histogram().getTotalCount() == 0 ? Double.NaN
							: discarded.histogram().getValueAtPercentile(50) / 1000.0);
			}
			else {
				record(byRate, w.rate(), w.target(), w.seconds());
			}
			left = after;
			boolean roundEnds = w.discarded()
					&& (i + 1 == schedule.size() || schedule.get(i + 1).warmupRound() != w.warmupRound());
			// the first rounds are in the schedule;
			// a later one only while a p50 still falls
			if (roundEnds && w.warmupRound() >= GeneratorWarmup.MIN_ROUNDS
					&& w.warmupRound() < GeneratorWarmup.MAX_ROUNDS && !warmup.stillFalling().isEmpty()) {
				List<Planned> more = warmupRound(measured, answerRate, w.warmupRound() + 1);
				schedule.addAll(i + 1, more);
				left += more.stream().mapToDouble(Planned::wallSeconds).sum();
			}
		}
		return new Measured(answerRate, byRate, skipped, warmupP50Us.isEmpty() ? null : warmup);
	}

	private void record(Map<Double, Map<String, Windows>> byRate, double rate, Target t, double seconds) {
		Windows w = byRate.computeIfAbsent(rate, r -> new LinkedHashMap<>())
			.computeIfAbsent(t.name(), n -> new Windows(new ArrayList<>(), new ArrayList<>()));
		try {
			w.windows().add(window(t, rate, seconds));
		}
		catch (RuntimeException e) {
			w.errors().add(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
			w.windows().add(new OpenLoad.Window(new Histogram(3), 0, 0, 0, 0, 0, false, rate, seconds));
		}
	}

	private OpenLoad.Window window(Target t, double rate, double seconds) {
		return generator.run(t, request(t), rate, seconds);
	}

	private PlanRequest request(Target t) {
		return s.catalog() == null ? null : s.catalog().request(t.plan(), s.jmeterProperties());
	}

	private static List<Target> ordered(List<Target> targets, int rep) {
		List<Target> order = new ArrayList<>(targets);
		if (rep % 2 == 0) {
			Collections.reverse(order);
		}
		return order;
	}

}
