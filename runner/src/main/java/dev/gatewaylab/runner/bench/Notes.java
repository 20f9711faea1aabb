package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.experiment.Experiment;
import dev.gatewaylab.runner.experiment.Switchback;
import dev.gatewaylab.runner.experiment.Toggle;
import dev.gatewaylab.runner.result.TargetResult;
import dev.gatewaylab.runner.run.Settings;
import dev.gatewaylab.runner.warmup.SteadyState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The method notes of a bench report: how warm-up, CPU cost, saturation and the load
 * models were handled.
 */
final class Notes {

	private Notes() {
	}

	static List<String> of(Settings s, List<TargetResult> results, Experiment e) {
		boolean experiment = e != null;
		List<String> notes = new ArrayList<>();
		if (!s.quick() && s.warmupSeconds() > 0) {
			notes.add(String.format(Locale.ROOT, "Warm-up (discarded) ran in windows of %d s until the target was "
					+ "steady: since its previous window (targets are warmed in turn) the JIT compile time of each "
					+ "JVM serving it (from its management port) and of the runner grew by less than %.0f %% of the wall "
					+ "time in between, and its TPS had stopped rising (the last window no more than %.0f %% above "
					+ "the best earlier one; without JVM metrics, also within as much of the window before) — or "
					+ "until %d s had passed (then a warning says so). Per target: the Method section.",
					s.warmupSeconds(), SteadyState.COMPILE_SHARE_PERCENT, SteadyState.TPS_TOLERANCE_PERCENT,
					s.warmupMaxSeconds()));
		}
		notes.add("CPU per request: each process's user + system CPU from /proc/<pid>/stat over a measured repetition, "
				+ "divided by the requests of that repetition; mean ± 95 % CI over the repetitions. It does not depend "
				+ "on who else shares the cores, unlike TPS.");
		notes.add(String.format(Locale.ROOT, "Saturation rule: warn when the runner's mean CPU ≥ 80 %% of its share "
				+ "of the machine (half the cores when it shares the machine with the targets, else all; 100 %% = one "
				+ "core), when the whole machine is ≥ 90 %% busy, or when the target's own process used < 10 %% of a "
				+ "core."));
		for (TargetResult r : results) {
			double predicted = s.threads() / (r.avgMs() / 1000.0) * Math.max(1, s.remoteHosts().size());
			notes.add(String.format(Locale.ROOT, "Little's law (closed model), %s: %d threads / %.2f ms avg = %,.0f "
					+ "req/s predicted vs %,.0f measured — with a fixed number of client threads the throughput is "
					+ "threads ÷ latency; the client set the load.", r.name(), s.threads(), r.avgMs(), predicted,
					r.tps()));
		}
		if (experiment && e.toggle() != null) {
			Toggle t = e.toggle();
			double l = Switchback.segmentSeconds(s.durationSeconds());
			notes.add(String.format(Locale.ROOT, "Experiment %s, switchback: for every repetition %s was restarted in "
					+ "each variant (alternating order), warmed until steady, then measured for %d s while the runner "
					+ "switched %s (POST %s on its management port) in the schedule on %s s, off %s s, on %s s, … "
					+ "(A B B A: both arms get the same time and the same average moment, so a linear drift cancels), "
					+ "after a discarded prelude of %s s off and %s s on that runs both code paths. Samples belong to the "
					+ "arm in force when they started; each process's CPU is read from /proc at every switch. Each "
					+ "variant is compared with its own off arm: TPS ratio per repetition (one JVM each; mean ± CI95), "
					+ "CPU per request on vs off. Two warmed JVMs of one build differ by ≈ ± 5 %% in TPS on this kind "
					+ "of machine; within one JVM and one minute that difference and the machine's drifts cancel.",
					s.experiment(), e.service(), s.durationSeconds(), t.what(), t.managementPath(), num(l), num(2 * l),
					num(2 * l), num(l), num(l)));
		}
		else if (experiment) {
			notes.add("Experiment " + s.experiment() + ": for every repetition the service under test was restarted "
					+ "in each variant (./lab down <service>; <environment> ./lab up <service>), each target warmed until "
					+ "steady and measured" + (s.openModel() ? " in the open model at " + s.rate() + " req/s" : "")
					+ ", variants interleaved in alternating order (A B C, then C B A: a drift over the run cancels out) and "
					+ "every measurement on a freshly restarted JVM; each is compared with the first ("
					+ s.targets().get(0).name() + "): "
					+ "TPS ratio per repetition (mean ± CI95), CPU per request, p99. No equal-load phase. Targets: "
					+ String.join("; ",
							s.targets()
								.stream()
								.map(t -> t.name() + " "
										+ (t.restartEnv().isEmpty() ? "(defaults)" : t.restartEnv().toString()))
								.toList())
					+ ".");
		}
		else if (s.latencyRepetitions() > 0) {
			notes.add("Latency at equal load (JMeter): after the throughput phase every target got the same "
					+ "open-model load for one window of " + s.durationSeconds() + " s (JMeter's Open Model Thread "
					+ "Group, Poisson arrivals at the rate shown, a new thread per arrival)"
					+ (EqualLoad.warms(s) ? ", after a discarded " + EqualLoad.WARMUP_SECONDS
							+ " s window per target at the same rate (the first connection-per-arrival "
							+ "load of a run is slow for its first half second)" : "")
					+ "; a repetition ends 2 s after its last arrival, and a request still in flight then counts "
					+ "as an error (none here unless the errors say so). Latency is measured from each request's actual send "
					+ "to its last byte in whole ms. An arrival never waits for a free "
					+ "client thread, so slow responses cannot hold back later requests (no coordinated omission at "
					+ "the arrival level); it can still hide in the runner itself — a saturated or GC-pausing "
					+ "runner sends late and JMeter measures from the late send (see the runner's CPU).");
		}
		if (!s.remoteHosts().isEmpty()) {
			notes.add("Remote engines " + s.remoteHosts() + ": each host runs jmeter-server (JMeter 5.6.3, with the "
					+ "plan's data files if any); the -J properties were sent to every engine (jmeter -G); the JTLs and "
					+ "live metrics aggregate all engines; threads are per engine (each engine runs the plan's threads). Sample "
					+ "time stamps come from each engine's clock: keep the clocks in sync (NTP), or skew stretches the "
					+ "measured window. CPU of an engine is read only when it runs on this machine (./lab engine).");
		}
		if (!s.dashboards()) {
			notes.add("JMeter dashboards skipped (--quick, --no-dashboard, or a switchback experiment, whose JTLs hold "
					+ "both arms of each run — the report splits them); make one from the raw JTLs with "
					+ "'jmeter -g raw/<target>-rep1.jtl -o <dir>' or rerun with --dashboard.");
		}
		return notes;
	}

	private static String num(double v) {
		return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
	}

}
