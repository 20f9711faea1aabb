package dev.gatewaylab.runner.curve;

import dev.gatewaylab.runner.latency.HistogramLog;
import dev.gatewaylab.runner.latency.OpenLoad;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes each target's measured latency windows — the answer rate's repetitions and the
 * curve's rates, not the generator's discarded warm-up — to
 * {@code raw/<target>-latency.hlog}, in the order they ran, each tagged with its rate;
 * returns a warning per log that could not be written.
 */
public final class LatencyLogs {

	private LatencyLogs() {
	}

	public static List<String> write(Path raw, LatencyPhase.Measured m, String generator) {
		List<String> problems = new ArrayList<>();
		Map<String, List<Map.Entry<Double, OpenLoad.Window>>> byTarget = new LinkedHashMap<>();
		m.byRate()
			.forEach((rate, targets) -> targets.forEach((name, windows) -> windows.windows()
				.forEach(w -> byTarget.computeIfAbsent(name, n -> new ArrayList<>()).add(Map.entry(rate, w)))));
		for (Map.Entry<String, List<Map.Entry<Double, OpenLoad.Window>>> e : byTarget.entrySet()) {
			List<Map.Entry<Double, OpenLoad.Window>> windows = new ArrayList<>(e.getValue());
			windows.sort(Comparator.comparingLong(w -> w.getValue().histogram().getStartTimeStamp()));
			HistogramLog log = HistogramLog.create(raw.resolve(e.getKey() + "-latency.hlog"),
					e.getKey() + ": " + generator);
			try {
				for (Map.Entry<Double, OpenLoad.Window> w : windows) {
					log.append(w.getValue(), HistogramLog.rateTag(w.getKey()));
				}
			}
			finally {
				log.close();
			}
			if (log.problem() != null) {
				problems.add(log.problem());
			}
		}
		return problems;
	}

}
