package dev.gatewaylab.runner.run;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Terminal progress: phase, target, rep, elapsed/remaining, live TPS and errors every 2
 * s.
 */
public final class Progress implements AutoCloseable {

	private final PrintStream out;

	private final boolean tty;

	private final long startNanos = System.nanoTime();

	private final long plannedSeconds;

	private final AtomicLong samples = new AtomicLong();

	private final AtomicLong errors = new AtomicLong();

	private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
		Thread t = new Thread(r, "lab-progress");
		t.setDaemon(true);
		return t;
	});

	private volatile String phase = "starting";

	private volatile long phaseStartNanos = System.nanoTime();

	private volatile long phaseSeconds;

	private volatile long phaseErrors;

	private long lastSamples;

	private long lastNanos = System.nanoTime();

	public Progress(PrintStream out, long plannedSeconds) {
		this.out = out;
		this.tty = System.console() != null;
		this.plannedSeconds = plannedSeconds;
		timer.scheduleAtFixedRate(this::print, 2, 2, TimeUnit.SECONDS);
	}

	public void phase(String description, long seconds) {
		phase = description;
		phaseSeconds = seconds;
		phaseStartNanos = System.nanoTime();
		phaseErrors = errors.get();
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
		long now = System.nanoTime();
		long s = samples.get();
		double tps = (s - lastSamples) / ((now - lastNanos) / 1e9);
		lastSamples = s;
		lastNanos = now;
		long elapsed = (now - startNanos) / 1_000_000_000L;
		long inPhase = (now - phaseStartNanos) / 1_000_000_000L;
		String line = String.format(Locale.ROOT, "[%s] %3ds/%ds | total %s, ~%s left | %,.0f req/s | errors %d", phase,
				Math.min(inPhase, Math.max(phaseSeconds, inPhase)), phaseSeconds, clock(elapsed),
				clock(Math.max(0, plannedSeconds - elapsed)), tps, errors.get() - phaseErrors);
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
