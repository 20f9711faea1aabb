package dev.gatewaylab.runner.run;

import dev.gatewaylab.runner.jmeter.LabCollector;
import dev.gatewaylab.runner.metrics.LiveMetrics;
import dev.gatewaylab.runner.remote.CallbackPorts;
import dev.gatewaylab.runner.remote.EngineFailure;
import dev.gatewaylab.runner.remote.RemoteEngine;
import dev.gatewaylab.runner.remote.RmiSetupException;
import dev.gatewaylab.runner.run.PlanRunner;
import dev.gatewaylab.runner.stats.Aggregate;
import dev.gatewaylab.runner.stats.JtlReader;
import dev.gatewaylab.runner.stats.Timeline;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Drives one plan against one target for a number of seconds: every sample goes to the
 * live metrics and the progress line (and an optional extra sink); the JTL, when asked
 * for, is read back into an {@link Aggregate}. Shared by bench, sweep and soak. With
 * remote engines, a failed engine fails the run ({@link LabException}), or with
 * {@code --on-engine-loss continue} the interrupted plan run is discarded and repeated on
 * the remaining engines.
 */
public final class Load {

	private final Settings settings;

	private final PlanRunner runner;

	private final LiveMetrics metrics;

	private final Progress progress;

	private final List<String> engineEvents = new ArrayList<>();

	private final List<String> lostEngines = new ArrayList<>();

	private final ClockOffsets clocks;

	private boolean ranOnce;

	public Load(Settings settings, LiveMetrics metrics, Progress progress) {
		this.settings = settings;
		int callbackPort = settings.remote().rmi().callbackPort();
		this.runner = new PlanRunner(settings.remoteHosts());
		List<String> warnings = new ArrayList<>();
		if (runner.isRemote()) {
			try {
				warnings.addAll(settings.remote()
					.rmi()
					.apply(settings.remoteHosts().stream().map(RemoteEngine::parse).toList()));
			}
			catch (RmiSetupException e) {
				throw new LabException(e.problem(), e.fix());
			}
			catch (CallbackPorts.Taken e) {
				throw new LabException(e.getMessage(),
						"stop what holds it (ss -tanp 'sport = :" + e.port() + "') or "
								+ "choose another --rmi-callback-port (the runner listens on PORT+1 and PORT+2), below "
								+ "the ephemeral range, e.g. --rmi-callback-port 21100");
			}
		}
		String ephemeral = callbackPort > 0 ? CallbackPorts.ephemeralWarning(callbackPort) : null;
		if (ephemeral != null) {
			warnings.add(ephemeral);
		}
		for (String w : warnings) {
			engineEvents.add(w);
			progress.note("warning: " + w);
		}
		this.clocks = new ClockOffsets(settings.remoteHosts());
		this.metrics = metrics;
		this.progress = progress;
	}

	/** The remote engines' clock offsets, estimated from every sample received so far. */
	public ClockOffsets clockOffsets() {
		return clocks;
	}

	public Progress progress() {
		return progress;
	}

	/**
	 * What happened to remote engines that the report must say (an engine lost and the
	 * run went on without it).
	 */
	public List<String> engineEvents() {
		return List.copyOf(engineEvents);
	}

	/**
	 * Engines lost during the run that it went on without (--on-engine-loss continue).
	 */
	public List<String> lostEngines() {
		return List.copyOf(lostEngines);
	}

	/**
	 * Runs the target's plan in the closed model; {@code jtl} null = no results file
	 * (warm-up).
	 */
	public void run(Target t, int seconds, int threads, Path jtl, LabCollector.SampleSink also)
			throws IOException, InterruptedException {
		Duration maxWait = Duration.ofSeconds(seconds + settings.rampupSeconds() + 40L);
		run(t, settings.propertiesFor(t, seconds, threads, 0), jtl, also, maxWait);
	}

	/**
	 * The open model's tail after the last arrival (ms): in-flight requests get this
	 * long, then count as errors.
	 */
	public static final long OPEN_TAIL_MS = 2000;

	/**
	 * Runs the target's plan in the open model: Poisson arrivals at {@code rate}/s for
	 * {@code seconds}, then at most {@value #OPEN_TAIL_MS} ms for the last arrivals to
	 * complete (the plan's {@code openTail}), not the plan's default tail of
	 * {@code responseTimeout} per request. On the in-process engine the run ends as soon
	 * as the last arrival has been answered ({@link OpenModelEnd}).
	 */
	public void runOpen(Target t, double rate, int seconds, Path jtl) throws IOException, InterruptedException {
		runOpen(t, rate, seconds, jtl, r -> {
		});
	}

	/**
	 * As {@link #runOpen(Target, double, int, Path)}, every sample also to {@code also}
	 * (the soak's intervals).
	 */
	public void runOpen(Target t, double rate, int seconds, Path jtl, LabCollector.SampleSink also)
			throws IOException, InterruptedException {
		Map<String, String> props = settings.propertiesFor(t, seconds, settings.threads(), rate);
		props.put("openTail", Long.toString(OPEN_TAIL_MS));
		run(t, props, jtl, also, Duration.ofMillis(seconds * 1000L + OPEN_TAIL_MS + 40_000L), seconds);
	}

	private void run(Target t, Map<String, String> props, Path jtl, LabCollector.SampleSink also, Duration maxWait)
			throws IOException, InterruptedException {
		run(t, props, jtl, also, maxWait, 0);
	}

	/** {@code openSeconds} > 0: an open-model run whose arrivals last that long. */
	private void run(Target t, Map<String, String> props, Path jtl, LabCollector.SampleSink also, Duration maxWait,
			int openSeconds) throws IOException, InterruptedException {
		Path plan = settings.plansDir().resolve(t.plan() + ".jmx");
		LiveMetrics.Series series = metrics.series(t.name(), t.plan());
		boolean remote = runner.isRemote();
		LabCollector.SampleSink sink = r -> {
			if (remote) {
				clocks.sample(r.getThreadName(), r.getEndTime(), System.currentTimeMillis());
			}
			series.record(r);
			progress.sample(r.isSuccessful());
			also.sample(r);
		};
		try {
			while (true) {
				try {
					runner.run(plan, props, jtl, sink, maxWait, openSeconds > 0 ? new OpenModelEnd(openSeconds) : null);
					ranOnce = true;
					return;
				}
				catch (EngineFailure f) {
					goOnWithout(f, jtl);
				}
			}
		}
		finally {
			series.idle();
		}
	}

	/**
	 * After an engine failure: throws (the default), or drops the engine and sets the
	 * partial JTL aside.
	 */
	private void goOnWithout(EngineFailure f, Path jtl) throws IOException {
		String during = progress.phase();
		Path aside = jtl == null || !Files.exists(jtl) ? null
				: Files.move(jtl, jtl.resolveSibling(jtl.getFileName() + ".lost"), StandardCopyOption.REPLACE_EXISTING);
		String kept = aside == null ? "" : " (its partial samples are kept apart in " + aside.getFileName() + ")";
		boolean fatal = !settings.remote().continueOnLoss() || (f.atStart() && !ranOnce);
		for (String engine : f.engines()) {
			fatal |= !runner.drop(engine);
		}
		if (fatal) {
			String fix = f.atStart() && !ranOnce
					? "start each engine with ./lab engine --host HOST --port PORT on its machine (docs/remote.md), "
							+ "or leave it out of --remote"
					: "the run is incomplete; restart the engine (./lab engine ...) and run again, or pass "
							+ "--on-engine-loss continue to go on without a lost engine";
			throw new LabException(f.getMessage() + (f.atStart() && !ranOnce ? " (checked before " + during + ")"
					: "; " + during + " is marked failed" + kept), fix);
		}
		String event = f.getMessage() + "; " + during + " was discarded" + kept + " and repeated on the remaining "
				+ "engines " + runner.engines() + " (--on-engine-loss continue): figures before and after differ in "
				+ "load generators";
		engineEvents.add(event);
		lostEngines.addAll(f.engines());
		progress.note("warning: " + event);
	}

	/**
	 * The measured samples of one JTL; fails clearly when the file is missing or holds no
	 * sample.
	 */
	public static Measured read(Target t, Path jtl, String what) throws IOException {
		return read(t, jtl, what, List.of());
	}

	/**
	 * As {@link #read(Target, Path, String)}, and counts the samples per remote engine
	 * (by the host[:port] prefix JMeter gives each engine's thread names; "unattributed"
	 * for any other).
	 */
	public static Measured read(Target t, Path jtl, String what, List<String> engines) throws IOException {
		if (!Files.exists(jtl)) {
			throw new LabException("no results file was written for " + t.name() + " " + what + " (" + jtl + ")",
					"check plan " + t.plan() + ".jmx and the JMeter log");
		}
		Measured m = readOrEmpty(t, jtl, what, engines);
		if (m.aggregate().samples() == 0) {
			throw new LabException("no samples recorded for " + t.name() + " " + what + " (plan " + t.plan() + ".jmx, "
					+ t.url() + ")", "check the plan's thread group and that the target answers");
		}
		return m;
	}

	/**
	 * As {@link #read(Target, Path, String, List)}, but a JTL that is missing or holds no
	 * sample gives an empty aggregate (bench judges that as an engine that produced
	 * nothing: an INVALID run with its report, not a failed one).
	 */
	public static Measured readOrEmpty(Target t, Path jtl, String what, List<String> engines) throws IOException {
		Aggregate a = new Aggregate();
		if (!Files.exists(jtl)) {
			return new Measured(a, new double[0], Map.of());
		}
		Timeline tl = new Timeline();
		Map<String, Long> perEngine = new LinkedHashMap<>();
		engines.forEach(e -> perEngine.put(e, 0L));
		JtlReader.read(jtl, sample -> {
			a.add(sample);
			tl.add(sample);
			if (!engines.isEmpty()) {
				perEngine.merge(engineOf(sample.threadName(), engines), 1L, Long::sum);
			}
		});
		return new Measured(a, tl.meanMs(), perEngine);
	}

	static String engineOf(String threadName, List<String> engines) {
		for (String e : engines) {
			if (threadName != null && threadName.startsWith(e + "-")) {
				return e;
			}
		}
		return "unattributed";
	}

	/**
	 * Aggregate of one JTL, its mean response time per second, and its samples per remote
	 * engine (empty: local).
	 */
	public record Measured(Aggregate aggregate, double[] timeline, Map<String, Long> engines) {
	}

}
