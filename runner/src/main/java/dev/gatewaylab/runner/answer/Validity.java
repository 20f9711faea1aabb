package dev.gatewaylab.runner.answer;

import dev.gatewaylab.runner.result.LatencyResult;
import dev.gatewaylab.runner.result.RepResult;
import dev.gatewaylab.runner.result.TargetResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether a run can support an answer: every target above the success threshold in every
 * phase, and JMeter and the latency generator produced samples wherever they ran. A run
 * that fails is INVALID — no answer sentence, the reasons in report and run.json, exit
 * {@value #EXIT_INVALID}. An experiment is judged only on whether they produced samples:
 * failing requests may be what it measures.
 */
public final class Validity {

	/** The exit code of an INVALID run. */
	public static final int EXIT_INVALID = 3;

	/** JMeter's engine, as a reason names it when it produced nothing. */
	private static final String JMETER = "the engine";

	/** The latency generator, as a reason names it when it produced nothing. */
	private static final String GENERATOR = "the generator";

	private Validity() {
	}

	public static List<String> reasons(List<TargetResult> results, List<RepResult> reps, LatencyResult latency,
			double minSuccess, boolean experiment) {
		List<String> out = new ArrayList<>();
		for (RepResult r : reps) {
			if (r.samples() == 0) {
				out.add(r.target() + ", closed-model rep " + r.rep() + " (JMeter): the engine produced nothing");
			}
		}
		for (TargetResult t : results) {
			check(out, t.name() + ", closed model (JMeter)", JMETER, t.samples(), t.successRate(), minSuccess,
					experiment);
			if (t.openModel() != null) {
				check(out, t.name() + ", equal load (JMeter)", JMETER, t.openModel().samples(),
						t.openModel().successRate(), minSuccess, experiment);
			}
		}
		if (latency != null) {
			for (LatencyResult.Level level : latency.levels()) {
				for (Map.Entry<String, LatencyResult.Point> e : level.targets().entrySet()) {
					LatencyResult.Point p = e.getValue();
					check(out, String.format(Locale.ROOT, "%s at %,.0f req/s (latency generator)", e.getKey(),
							level.rate()), GENERATOR, p.requests(), p.successRate(), minSuccess, experiment);
				}
			}
		}
		return out;
	}

	private static void check(List<String> out, String what, String producer, long samples, double successRate,
			double minSuccess, boolean experiment) {
		if (samples == 0) {
			out.add(what + ": " + producer + " produced nothing (no request sent or recorded)");
		}
		else if (!experiment && !(successRate >= minSuccess)) {
			out.add(String.format(Locale.ROOT,
					"%s: %.2f %% of requests succeeded, under the %s %% a run needs " + "(--min-success)", what,
					successRate, Answer.trim(minSuccess)));
		}
	}

}
