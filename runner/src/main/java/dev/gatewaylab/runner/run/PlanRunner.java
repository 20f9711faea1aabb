package dev.gatewaylab.runner.run;

import dev.gatewaylab.runner.jmeter.EndLatch;
import dev.gatewaylab.runner.jmeter.LabCollector;
import dev.gatewaylab.runner.remote.RemoteEngine;
import dev.gatewaylab.runner.remote.RemoteRun;
import dev.gatewaylab.runner.remote.Rmi;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.JMeter;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.openmodel.OpenModelThreadGroup;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.SearchByClass;

/**
 * Runs one JMeter plan in-process (StandardJMeterEngine) or on remote jmeter-server
 * engines ({@link RemoteRun}, as {@code jmeter -R host1,host2} does), with {@code -J}
 * properties and a {@link LabCollector}.
 */
public final class PlanRunner {

	private final List<RemoteEngine> engines;

	/**
	 * {@code remoteHosts}: host[:port] of each jmeter-server engine; empty = the
	 * in-process engine. With engines, RMI must be set up first ({@link Rmi#apply}).
	 */
	public PlanRunner(List<String> remoteHosts) {
		this.engines = new ArrayList<>(remoteHosts.stream().map(RemoteEngine::parse).toList());
	}

	public boolean isRemote() {
		return !engines.isEmpty();
	}

	/** The remote engines still in use, as given to --remote. */
	public List<String> engines() {
		return engines.stream().map(RemoteEngine::name).toList();
	}

	/** Goes on without an engine (it was lost); false when it was the last one. */
	public boolean drop(String engine) {
		engines.removeIf(e -> e.name().equals(engine));
		return !engines.isEmpty();
	}

	/**
	 * Checks that every remote engine answers; throws
	 * {@link dev.gatewaylab.runner.remote.EngineFailure} naming those that do not.
	 */
	public void checkEngines() {
		if (isRemote()) {
			RemoteRun.check(engines);
		}
	}

	/**
	 * Stops whatever runs on remote engines now (Ctrl-C), as
	 * StandardJMeterEngine.stopEngineNow() does locally.
	 */
	public static void stopRemoteNow() {
		RemoteRun.stopAll();
	}

	/**
	 * Loads the plan, applies the properties (what {@code -Jkey=value} does) and returns
	 * the tree to run.
	 */
	public static HashTree load(Path plan, Map<String, String> properties) throws IOException {
		properties.forEach(JMeterUtils::setProperty);
		HashTree tree = SaveService.loadTree(plan.toFile());
		return JMeter.convertSubTree(tree, true);
	}

	/**
	 * Runs the plan to its end; waits at most {@code maxWait}, then stops the engine. On
	 * remote engines, properties go to every engine (the {@code -G} route: the plan's
	 * {@code __P} functions are evaluated there) and samples of all engines come back to
	 * the one {@link LabCollector}; a failed engine ends the run with
	 * {@link dev.gatewaylab.runner.remote.EngineFailure}.
	 * @param jtl CSV result file to write, or {@code null} for no file (warm-up)
	 */
	public void run(Path plan, Map<String, String> properties, Path jtl, LabCollector.SampleSink sink, Duration maxWait)
			throws IOException, InterruptedException {
		run(plan, properties, jtl, sink, maxWait, null);
	}

	/**
	 * As {@link #run(Path, Map, Path, LabCollector.SampleSink, Duration)}; an open-model
	 * run on the in-process engine ends as soon as {@code openEnd} says its last arrival
	 * has been answered (remote engines run the plan's schedule to its end).
	 */
	public void run(Path plan, Map<String, String> properties, Path jtl, LabCollector.SampleSink sink, Duration maxWait,
			OpenModelEnd openEnd) throws IOException, InterruptedException {
		HashTree tree = load(plan, properties);
		LabCollector.SampleSink tracked = openEnd == null || isRemote() ? sink : r -> {
			openEnd.sampleStarted(r.getStartTime());
			sink.sample(r);
		};
		LabCollector collector = new LabCollector(tracked);
		collector.setName("lab-collector");
		if (jtl != null) {
			Files.createDirectories(jtl.toAbsolutePath().getParent());
			collector.setFilename(jtl.toAbsolutePath().toString());
		}
		Object root = tree.getArray()[0];
		tree.add(root, collector);
		EndLatch end = new EndLatch();
		tree.add(root, end);
		if (isRemote()) {
			new RemoteRun(List.copyOf(engines), collector, end).run(tree, properties, maxWait);
		}
		else {
			runLocal(tree, end, maxWait, openEnd);
		}
	}

	private static void runLocal(HashTree tree, EndLatch end, Duration maxWait, OpenModelEnd openEnd)
			throws InterruptedException {
		SearchByClass<OpenModelThreadGroup> openGroups = new SearchByClass<>(OpenModelThreadGroup.class);
		tree.traverse(openGroups);
		StandardJMeterEngine engine = new StandardJMeterEngine();
		engine.configure(tree);
		Thread thread = new Thread(engine, "lab-jmeter-engine");
		thread.start();
		try {
			long deadline = System.nanoTime() + maxWait.toNanos();
			if (openEnd != null && awaitOpenEnd(end, deadline, openEnd)) {
				// Every arrival answered: end the schedule's tail. Each group
				// cancels its arrival scheduler and shuts its (idle) pool down;
				// the engine then ends as after a complete schedule.
				openGroups.getSearchResults().forEach(OpenModelThreadGroup::tellThreadsToStop);
			}
			if (!end.awaitLocal(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
				engine.stopTest(true);
			}
			thread.join(TimeUnit.SECONDS.toMillis(30));
		}
		catch (InterruptedException e) {
			engine.stopTest(true);
			thread.join(TimeUnit.SECONDS.toMillis(10));
			throw e;
		}
	}

	/**
	 * Waits until the engine ended by itself (false), the deadline passed (false), or the
	 * open model's arrivals have all been answered (true).
	 */
	private static boolean awaitOpenEnd(EndLatch end, long deadline, OpenModelEnd openEnd) throws InterruptedException {
		while (!end.awaitLocal(Duration.ofMillis(POLL_MS))) {
			if (System.nanoTime() >= deadline) {
				return false;
			}
			if (openEnd.done(System.currentTimeMillis(), JMeterContextService.getNumberOfThreads())) {
				return true;
			}
		}
		return false;
	}

	private static final long POLL_MS = 20;

}
