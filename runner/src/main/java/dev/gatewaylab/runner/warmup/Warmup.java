package dev.gatewaylab.runner.warmup;

import dev.gatewaylab.runner.process.JvmActivity;
import dev.gatewaylab.runner.result.WarmupResult;
import dev.gatewaylab.runner.result.WarmupWindow;
import dev.gatewaylab.runner.run.Catalog;
import dev.gatewaylab.runner.run.Load;
import dev.gatewaylab.runner.run.Settings;
import dev.gatewaylab.runner.run.Target;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Warm-up (discarded) in windows of {@code --warmup} seconds until {@link SteadyState}
 * says the target is warm — the JVMs serving it (read from their management ports) and
 * the runner's own JVM stopped compiling, and throughput settled — or the target has had
 * {@code --warmup-max} seconds of load. {@code --quick} runs one window and does not
 * judge.
 */
public final class Warmup {

	private final Settings s;

	private final Load load;

	public Warmup(Settings settings, Load load) {
		this.s = settings;
		this.load = load;
	}

	/** Warms one target until it is steady or capped. */
	public WarmupResult run(Target t) throws IOException, InterruptedException {
		Session session = begin(t);
		WarmupResult result = null;
		while (result == null) {
			result = step(session);
		}
		return result;
	}

	/**
	 * Warms several targets in turn, one window each, until every one is steady or
	 * capped: each target then idles between its windows as it will between its
	 * interleaved measured repetitions, and its warm-up ends close to the measurement.
	 */
	public Map<Target, WarmupResult> runInterleaved(List<Target> targets) throws IOException, InterruptedException {
		Map<Target, Session> sessions = new LinkedHashMap<>();
		for (Target t : targets) {
			sessions.put(t, begin(t));
		}
		Map<Target, WarmupResult> done = new LinkedHashMap<>();
		while (done.size() < targets.size()) {
			for (Target t : targets) {
				if (!done.containsKey(t)) {
					WarmupResult r = step(sessions.get(t));
					if (r != null) {
						done.put(t, r);
					}
				}
			}
		}
		Map<Target, WarmupResult> ordered = new LinkedHashMap<>();
		targets.forEach(t -> ordered.put(t, done.get(t)));
		return ordered;
	}

	/**
	 * One target's warm-up in progress: its JVMs, their first and latest readings, the
	 * windows so far.
	 */
	private static final class Session {

		final Target target;

		final Map<String, URI> jvms;

		final Map<String, JvmActivity> first;

		Map<String, JvmActivity> before;

		long beforeNanos = System.nanoTime();

		final List<SteadyState.Window> windows = new ArrayList<>();

		final List<WarmupWindow> log = new ArrayList<>();

		double busySeconds;

		Session(Target target, Map<String, URI> jvms, Map<String, JvmActivity> first) {
			this.target = target;
			this.jvms = jvms;
			this.first = first;
			this.before = first;
		}

	}

	private Session begin(Target t) {
		Map<String, URI> jvms = jvms(t);
		return new Session(t, jvms, read(jvms));
	}

	/**
	 * Runs one window; returns the result once the target is steady or capped, else null.
	 */
	private WarmupResult step(Session w) throws IOException, InterruptedException {
		Target t = w.target;
		load.progress().phase("warm-up " + t.name() + " window " + (w.windows.size() + 1), s.warmupSeconds());
		LongAdder count = new LongAdder();
		long w0 = System.nanoTime();
		load.run(t, s.warmupSeconds(), s.threads(), null, r -> count.increment());
		double seconds = (System.nanoTime() - w0) / 1e9;
		Map<String, JvmActivity> after = read(w.jvms);
		long afterNanos = System.nanoTime();
		String busiest = null;
		double maxCompile = Double.NaN;
		for (Map.Entry<String, JvmActivity> e : after.entrySet()) {
			JvmActivity b = w.before.get(e.getKey());
			if (b != null && !Double.isNaN(b.compileMs()) && !Double.isNaN(e.getValue().compileMs())) {
				double grew = e.getValue().compileMs() - b.compileMs();
				if (Double.isNaN(maxCompile) || grew > maxCompile) {
					maxCompile = grew;
					busiest = e.getKey();
				}
			}
		}
		w.windows.add(new SteadyState.Window(seconds, count.sum() / seconds, maxCompile, busiest,
				(afterNanos - w.beforeNanos) / 1e9));
		w.before = after;
		w.beforeNanos = afterNanos;
		w.busySeconds += seconds;
		SteadyState.Window last = w.windows.get(w.windows.size() - 1);
		if (s.quick()) {
			w.log.add(logged(last, false, false));
			return result(w.busySeconds, w.windows.size(), false, w.first, after,
					"--quick: one window of " + s.warmupSeconds() + " s, not judged", w.log);
		}
		SteadyState.Verdict v = SteadyState.judge(w.windows, w.busySeconds, s.warmupMaxSeconds());
		w.log.add(logged(last, v.compiling(), v.tpsMoving()));
		return v.state() == SteadyState.State.WARMING ? null : result(w.busySeconds, w.windows.size(),
				v.state() == SteadyState.State.WARM, w.first, after, v.reason(), w.log);
	}

	private static WarmupWindow logged(SteadyState.Window w, boolean compiling, boolean tpsMoving) {
		return new WarmupWindow(tenths(w.seconds()), tenths(w.tps()),
				Double.isNaN(w.compileMs()) ? null : tenths(w.compileMs()), w.busiestJvm(), tenths(w.sinceSeconds()),
				compiling, tpsMoving);
	}

	private static double tenths(double v) {
		return Math.round(v * 10) / 10.0;
	}

	/**
	 * The JVMs a target's numbers depend on: the services it needs, by management URL,
	 * plus this runner.
	 */
	private Map<String, URI> jvms(Target t) {
		Map<String, URI> out = new LinkedHashMap<>();
		Catalog c = s.catalog();
		Catalog.TargetKind kind = c.targets().get(t.name());
		if (kind == null) {
			kind = c.targets().values().stream().filter(k -> k.service().equals(t.service())).findFirst().orElse(null);
		}
		if (kind != null) {
			for (String svc : kind.needs()) {
				out.put(svc, URI.create(t.protocol() + "://" + t.host() + ":" + c.service(svc).managementPort()));
			}
		}
		out.put("runner", null);
		return out;
	}

	private static Map<String, JvmActivity> read(Map<String, URI> jvms) {
		Map<String, JvmActivity> out = new LinkedHashMap<>();
		jvms.forEach((name, uri) -> {
			JvmActivity a = uri == null ? JvmActivity.self() : JvmActivity.scrape(uri);
			if (a != null) {
				out.put(name, a);
			}
		});
		return out;
	}

	private static WarmupResult result(double seconds, int windows, boolean steady, Map<String, JvmActivity> first,
			Map<String, JvmActivity> last, String reason, List<WarmupWindow> log) {
		Double before = sum(first, last, true);
		Double after = sum(first, last, false);
		double gc = 0;
		boolean anyGc = false;
		for (String k : last.keySet()) {
			if (!k.equals("runner") && first.containsKey(k)) {
				gc += last.get(k).gcPauseMs() - first.get(k).gcPauseMs();
				anyGc = true;
			}
		}
		return new WarmupResult(Math.round(seconds * 10) / 10.0, windows, steady, before, after, anyGc ? gc : null,
				reason, log);
	}

	/**
	 * Compile ms summed over the target's JVMs (not the runner) read both at the start
	 * and at the end.
	 */
	private static Double sum(Map<String, JvmActivity> first, Map<String, JvmActivity> last, boolean atStart) {
		double total = 0;
		boolean any = false;
		for (String k : last.keySet()) {
			if (!k.equals("runner") && first.containsKey(k)) {
				total += (atStart ? first : last).get(k).compileMs();
				any = true;
			}
		}
		return any ? total : null;
	}

}
