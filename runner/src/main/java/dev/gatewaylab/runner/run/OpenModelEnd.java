package dev.gatewaylab.runner.run;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Ends an open-model run on the in-process engine once its last arrival has been
 * answered, instead of waiting out the plan's tail ({@code openTail}, which stays the
 * longest an arrival may take). The plan's schedule starts its arrivals 200 ms after the
 * thread group evaluates it and runs them for {@code seconds}, so no sample can start
 * before the first arrival and none arrives later than the earliest sample's start plus
 * {@code seconds}: from then on (and {@value #MARGIN_MS} ms more for the thread that
 * takes the last arrival to start), a moment with no JMeter thread running means every
 * arrival has been answered and recorded.
 */
public final class OpenModelEnd {

	/** Allowance for the arrival thread's start after its scheduled moment (ms). */
	static final long MARGIN_MS = 250;

	private final long arrivalsMs;

	private final AtomicLong firstStartMs = new AtomicLong(Long.MAX_VALUE);

	public OpenModelEnd(double seconds) {
		this.arrivalsMs = Math.round(seconds * 1000);
	}

	/** A sample of the run: its start time (epoch ms). */
	void sampleStarted(long startMs) {
		firstStartMs.accumulateAndGet(startMs, Math::min);
	}

	/**
	 * True when the run may end: the arrivals are over and no thread of the engine is
	 * running.
	 */
	boolean done(long nowMs, int runningThreads) {
		long first = firstStartMs.get();
		return first != Long.MAX_VALUE && nowMs >= first + arrivalsMs + MARGIN_MS && runningThreads == 0;
	}

}
