package dev.gatewaylab.runner.run;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each remote engine's clock offset from the runner's (engine − runner, ms), estimated
 * from the samples themselves: a sample's end time is stamped by the engine's clock, and
 * the runner receives it no earlier than that instant on its own clock. So
 * {@code end − received} is at most the offset for every sample, and its maximum is the
 * offset minus the shortest delivery delay — within a few ms, since the engines send a
 * batch as soon as a sample ends after the batch interval (JMeter's StrippedBatch sender,
 * at least once a second). Engine time stamps feed the JTL's time window (TPS), the
 * timeline and the steady-state windows: an engine's offset shifts its samples by that
 * much.
 */
public final class ClockOffsets {

	/**
	 * Above this |offset| (ms) the run warns: time windows mixing engines are off by more
	 * than a second.
	 */
	public static final long WARN_MS = 1000;

	private final List<String> engines;

	private final Map<String, Long> maxLead = new ConcurrentHashMap<>();

	private final Map<String, Long> samples = new ConcurrentHashMap<>();

	public ClockOffsets(List<String> engines) {
		this.engines = List.copyOf(engines);
	}

	/**
	 * One sample as received: its thread name (engine prefix), end time (engine clock)
	 * and arrival (runner clock).
	 */
	public void sample(String threadName, long endMs, long receivedMs) {
		String engine = Load.engineOf(threadName, engines);
		if (engine.equals("unattributed") || endMs <= 0) {
			return;
		}
		maxLead.merge(engine, endMs - receivedMs, Math::max);
		samples.merge(engine, 1L, Long::sum);
	}

	/**
	 * Offset per engine (ms, engine − runner), null for an engine no sample came from.
	 */
	public Map<String, Long> offsets() {
		Map<String, Long> out = new LinkedHashMap<>();
		engines.forEach(e -> out.put(e, maxLead.get(e)));
		return out;
	}

	/** The offset of one engine, or null. */
	public Long offset(String engine) {
		return maxLead.get(engine);
	}

	/** One warning per engine whose |offset| exceeds {@value #WARN_MS} ms. */
	public List<String> warnings() {
		return offsets().entrySet()
			.stream()
			.filter(e -> e.getValue() != null && Math.abs(e.getValue()) > WARN_MS)
			.map(e -> String.format(Locale.ROOT,
					"engine %s's clock is %+.1f s off the runner's (estimated from "
							+ "%d samples): its time stamps shift the JTL's time window (TPS), the timeline and the "
							+ "steady-state windows by that much — sync the clocks (NTP/chrony; chronyc tracking)",
					e.getKey(), e.getValue() / 1000.0, samples.getOrDefault(e.getKey(), 0L)))
			.toList();
	}

}
