package dev.gatewaylab.runner.run;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Terminal progress: phase, target, rep, elapsed/remaining, live TPS and errors every 2
 * s. The remaining time counts down to a planned end, which the run moves as it learns
 * how long its stages take ({@link #replan}).
 */
public final class Progress implements AutoCloseable {

	private static final long NANOS_PER_SECOND = 1_000_000_000L;

	private final PrintStream out;

	private final boolean tty;

	private final LongSupplier nanoTime;

	private final long startNanos;

	private long plannedEndNanos;

	private long secondsAfterStage;

	private final AtomicLong samples = new AtomicLong();

	private final AtomicLong errors = new AtomicLong();

	private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
		Thread t = new Thread(r, "lab-progress");
		t.setDaemon(true);
		return t;
	});

	private volatile String phase = "starting";

	private volatile long phaseStartNanos;

	private volatile long phaseSeconds;

	private volatile long phaseErrors;

	private long lastSamples;

	private long lastNanos;

	/** A progress line for a run planned to last {@code plannedSeconds}. */
	public Progress(PrintStream out, long plannedSeconds) {
		this(out, plannedSeconds, System::nanoTime);
	}

	/** The same, on the clock {@code nanoTime} (a stand-in in tests). */
	public Progress(PrintStream out, long plannedSeconds, LongSupplier nanoTime) {
		this.out = out;
		this.tty = System.console() != null;
		this.nanoTime = nanoTime;
		this.startNanos = nanoTime.getAsLong();
		this.plannedEndNanos = startNanos + plannedSeconds * NANOS_PER_SECOND;
		this.phaseStartNanos = startNanos;
		this.lastNanos = startNanos;
		timer.scheduleAtFixedRate(this::print, 2, 2, TimeUnit.SECONDS);
	}

	public void phase(String description, long seconds) {
		phase = description;
		phaseSeconds = seconds;
		phaseStartNanos = nanoTime.getAsLong();
		phaseErrors = errors.get();
	}

	/**
	 * Plans the rest of the run again, at a point where it knows more than at the start
	 * (a stage ended, or the length of the next ones became known): the run now ends
	 * {@code secondsLeft} from now, and {@code secondsAfterStage} of them follow the
	 * stage that begins now. A stage that overruns its plan holds the remaining time at
	 * the latter rather than let it reach 0:00 while work remains.
	 */
	public synchronized void replan(long secondsLeft, long secondsAfterStage) {
		this.plannedEndNanos = nanoTime.getAsLong() + secondsLeft * NANOS_PER_SECOND;
		this.secondsAfterStage = secondsAfterStage;
	}

	/** The remaining time the progress line shows now, in whole seconds. */
	public synchronized long secondsLeft() {
		return secondsLeft(nanoTime.getAsLong(), plannedEndNanos, secondsAfterStage);
	}

	/**
	 * The seconds until the planned end (a started second counts), at least the seconds
	 * known to follow the current stage, never below 0.
	 */
	static long secondsLeft(long nowNanos, long plannedEndNanos, long secondsAfterStage) {
		long untilEnd = Math.floorDiv(plannedEndNanos - nowNanos + NANOS_PER_SECOND - 1, NANOS_PER_SECOND);
		return Math.max(0, Math.max(untilEnd, secondsAfterStage));
	}

	/** The current phase, e.g. "measure gateway rep 2/5". */
	public String phase() {
		return phase;
	}

	public void sample(boolean ok) {
		samples.incrementAndGet();
		if (!ok) {
			errors.incrementAndGet();
		}
	}

	private synchronized void print() {
		long now = nanoTime.getAsLong();
		long s = samples.get();
		double tps = (s - lastSamples) / ((now - lastNanos) / 1e9);
		lastSamples = s;
		lastNanos = now;
		long elapsed = (now - startNanos) / NANOS_PER_SECOND;
		long inPhase = (now - phaseStartNanos) / NANOS_PER_SECOND;
		String line = String.format(Locale.ROOT, "[%s] %3ds/%ds | total %s, ~%s left | %,.0f req/s | errors %d", phase,
				Math.min(inPhase, Math.max(phaseSeconds, inPhase)), phaseSeconds, clock(elapsed),
				clock(secondsLeft(now, plannedEndNanos, secondsAfterStage)), tps, errors.get() - phaseErrors);
		if (tty) {
			out.print("\r" + line + "   ");
		}
		else {
			out.println(line);
		}
		out.flush();
	}

	/** A line of its own between the progress lines (e.g. a warning). */
	public synchronized void note(String line) {
		out.print(tty ? "\r" + line + System.lineSeparator() : line + System.lineSeparator());
		out.flush();
	}

	private static String clock(long s) {
		return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
	}

	@Override
	public void close() {
		timer.shutdownNow();
		if (tty) {
			out.println();
		}
	}

}
