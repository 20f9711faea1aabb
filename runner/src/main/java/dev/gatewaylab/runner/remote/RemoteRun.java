package dev.gatewaylab.runner.remote;

import dev.gatewaylab.runner.jmeter.EndLatch;
import dev.gatewaylab.runner.jmeter.LabCollector;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.jmeter.engine.ClientJMeterEngine;
import org.apache.jmeter.engine.DistributedRunner;
import org.apache.jmeter.engine.JMeterEngine;
import org.apache.jorphan.collections.HashTree;

/**
 * One plan run on remote jmeter-server engines, as {@code jmeter -R hosts -G...} does
 * (DistributedRunner), with what jmeter -R lacks: every engine is checked before the run
 * (a clear message, not a stack trace); while it runs each engine still busy is probed
 * every second, and one that fails two probes in a row — or never reports back, or
 * overruns the deadline — ends the run on every engine with an {@link EngineFailure}
 * within a few seconds.
 */
public final class RemoteRun {

	static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

	/**
	 * How long an engine may take from "run" to reporting its test started (its callback
	 * to the runner works).
	 */
	static final Duration START_REPORT = Duration.ofSeconds(15);

	private static final Duration STOP_GRACE = Duration.ofSeconds(15);

	private static final int MISSES = 2;

	private static final ExecutorService PROBES = Executors.newCachedThreadPool(r -> {
		Thread t = new Thread(r, "lab-engine-watch");
		t.setDaemon(true);
		return t;
	});

	/** Runs under way, for {@link #stopAll()} on Ctrl-C. */
	private static final java.util.Set<DistributedRunner> ACTIVE = java.util.concurrent.ConcurrentHashMap.newKeySet();

	private final List<RemoteEngine> engines;

	private final LabCollector collector;

	private final EndLatch end;

	public RemoteRun(List<RemoteEngine> engines, LabCollector collector, EndLatch end) {
		this.engines = engines;
		this.collector = collector;
		this.end = end;
	}

	/**
	 * Every engine answers with a bound JMeter engine, else an EngineFailure naming each
	 * one that does not.
	 */
	public static void check(List<RemoteEngine> engines) {
		Map<RemoteEngine, CompletableFuture<String>> probes = probeAll(engines);
		List<String> down = new ArrayList<>();
		List<String> why = new ArrayList<>();
		probes.forEach((e, p) -> {
			String problem = p.join();
			if (problem != null) {
				down.add(e.name());
				why.add(e.name() + ": " + problem);
			}
		});
		if (!down.isEmpty()) {
			throw new EngineFailure(down, true, "remote engine " + String.join("; ", why));
		}
	}

	public void run(HashTree tree, Map<String, String> properties, Duration maxWait) throws InterruptedException {
		check(engines);
		Properties remoteProps = new Properties();
		remoteProps.putAll(properties);
		DistributedRunner runner = new DistributedRunner(remoteProps);
		List<String> names = engines.stream().map(RemoteEngine::name).toList();
		PrintStream stdout = System.out;
		try {
			// ClientJMeterEngine prints RMI refs
			System.setOut(new PrintStream(PrintStream.nullOutputStream()));
			runner.init(new ArrayList<>(names), tree);
		}
		catch (RuntimeException | Error e) {
			throw new EngineFailure(names, true, "remote engines " + names + " could not be configured: " + e);
		}
		finally {
			System.setOut(stdout);
		}
		Map<String, String> notStarted = new LinkedHashMap<>();
		for (JMeterEngine engine : runner.getEngines()) {
			String host = ((ClientJMeterEngine) engine).getHost();
			try {
				engine.runTest();
			}
			catch (Exception e) {
				notStarted.put(host, e.getMessage());
			}
		}
		if (!notStarted.isEmpty()) {
			// not stopped there: what such an engine runs is another runner's test
			abort(runner, new ArrayList<>(notStarted.keySet()), false, true, "remote engine(s) did not start the run: "
					+ notStarted + " — an engine runs one test at a time (another runner using it?)");
		}
		ACTIVE.add(runner);
		try {
			watch(runner, names, maxWait);
		}
		catch (InterruptedException e) {
			runner.stop(); // the engines must not go on loading the target
			throw e;
		}
		finally {
			ACTIVE.remove(runner);
		}
	}

	/**
	 * Stops every remote run under way (the runner is being interrupted): engines must
	 * not keep loading.
	 */
	public static void stopAll() {
		ACTIVE.forEach(DistributedRunner::stop);
	}

	private void watch(DistributedRunner runner, List<String> names, Duration maxWait) throws InterruptedException {
		long t0 = System.nanoTime();
		Map<String, Integer> misses = new HashMap<>();
		while (!end.await(names, Duration.ofSeconds(1))) {
			long elapsed = System.nanoTime() - t0;
			List<RemoteEngine> busy = engines.stream().filter(e -> !end.ended(e.name())).toList();
			if (elapsed > maxWait.toNanos()) {
				abort(runner, busy.stream().map(RemoteEngine::name).toList(), true, false,
						"remote engine(s) " + busy.stream().map(RemoteEngine::name).toList() + " did not finish within "
								+ maxWait.toSeconds() + " s");
			}
			List<String> lost = new ArrayList<>();
			List<String> why = new ArrayList<>();
			probeAll(busy).forEach((e, p) -> {
				String problem = p.join();
				int n = problem == null ? 0 : misses.merge(e.name(), 1, Integer::sum);
				if (problem == null) {
					misses.remove(e.name());
				}
				else if (n >= MISSES) {
					lost.add(e.name());
					why.add(e.name() + " (" + problem + ")");
				}
				if (problem == null && !end.started(e.name()) && elapsed > START_REPORT.toNanos()) {
					lost.add(e.name());
					why.add(e.name() + " (it runs but never reported back: it cannot reach this runner — set "
							+ "--rmi-hostname to an address of this machine the engine can reach, and open the "
							+ "callback ports, see --rmi-callback-port)");
				}
			});
			if (!lost.isEmpty()) {
				abort(runner, lost, true, false, "lost remote engine " + String.join(", ", why) + " after "
						+ elapsed / 1_000_000_000L + " s of the run");
			}
		}
	}

	/**
	 * Stops the run on every engine that still answers — the healthy ones and any failed
	 * one that is still reachable (it never reported back, or overran;
	 * {@code stopFailed}): an aborted run leaves no engine loading the target. Waits a
	 * little for the healthy ones to end, closes the results file for the engines that
	 * never will, throws.
	 */
	private void abort(DistributedRunner runner, List<String> failed, boolean stopFailed, boolean atStart,
			String message) throws InterruptedException {
		List<String> names = engines.stream().map(RemoteEngine::name).toList();
		List<String> others = names.stream().filter(n -> !failed.contains(n) && !end.ended(n)).toList();
		List<String> stop = new ArrayList<>(others);
		probeAll(engines.stream().filter(e -> stopFailed && failed.contains(e.name()) && !end.ended(e.name())).toList())
			.forEach((e, p) -> {
				if (p.join() == null) {
					stop.add(e.name());
				}
			});
		stopTests(runner, stop);
		end.await(others, STOP_GRACE);
		collector.endLost(new java.util.HashSet<>(names));
		throw new EngineFailure(failed, atStart, message);
	}

	/**
	 * stopTest(now) on each of {@code hosts}' engines at once; waits at most
	 * {@link #STOP_GRACE} for the calls.
	 */
	private static void stopTests(DistributedRunner runner, List<String> hosts) throws InterruptedException {
		List<CompletableFuture<Void>> calls = new ArrayList<>();
		for (JMeterEngine engine : runner.getEngines()) {
			if (engine instanceof ClientJMeterEngine client && hosts.contains(client.getHost())) {
				calls.add(CompletableFuture.runAsync(() -> client.stopTest(true), PROBES));
			}
		}
		try {
			CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
				.get(STOP_GRACE.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
		}
		catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
			// an engine that does not take the call is down: nothing runs there to stop
		}
	}

	private static Map<RemoteEngine, CompletableFuture<String>> probeAll(List<RemoteEngine> engines) {
		Map<RemoteEngine, CompletableFuture<String>> probes = new LinkedHashMap<>();
		for (RemoteEngine e : engines) {
			probes.put(e, CompletableFuture.supplyAsync(() -> e.problem(PROBE_TIMEOUT), PROBES));
		}
		return probes;
	}

}
