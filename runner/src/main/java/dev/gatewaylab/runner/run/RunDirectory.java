package dev.gatewaylab.runner.run;

import dev.gatewaylab.runner.run.PlanRunner;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.jmeter.engine.StandardJMeterEngine;

/**
 * The life of one run (bench or sweep): starts the services it needs when asked to,
 * creates its results directory marked INCOMPLETE until {@link #complete()}, and on close
 * records why it did not complete (failure or interrupt) and stops the services it
 * started.
 */
public final class RunDirectory implements AutoCloseable {

	private final Path dir;

	private final LabScript lab;

	private final List<String> started;

	private final Thread hook;

	private final long startNanos = System.nanoTime();

	private volatile boolean done;

	private volatile String failure;

	private RunDirectory(Path dir, LabScript lab, List<String> started) {
		this.dir = dir;
		this.lab = lab;
		this.started = started;
		this.hook = new Thread(() -> {
			if (!done) {
				Runs.markIncomplete(dir, "interrupted before the report was written");
				StandardJMeterEngine.stopEngineNow();
				PlanRunner.stopRemoteNow();
				if (lab != null) {
					lab.stop(started); // Ctrl-C: still leave the machine as it was
				}
			}
		}, "lab-interrupt");
		Runtime.getRuntime().addShutdownHook(hook);
	}

	/** What one run does inside its directory; returns the command's exit code. */
	@FunctionalInterface
	public interface Body {

		int run(RunDirectory run) throws Exception;

	}

	/**
	 * The whole life of a run: {@link #start}, then {@code body}; a failure (exception or
	 * error) is recorded in the INCOMPLETE marker and rethrown; the services it started
	 * are stopped in every case.
	 */
	public static int run(Settings s, boolean start, PrintStream out, Body body) throws Exception {
		try (RunDirectory run = start(s, start, out)) {
			try {
				return body.run(run);
			}
			catch (Exception | Error e) {
				run.fail(e);
				throw e;
			}
		}
	}

	/**
	 * Starts the needed services (with {@code start}), then creates the results
	 * directory.
	 */
	private static RunDirectory start(Settings s, boolean start, PrintStream out)
			throws IOException, InterruptedException {
		LabScript lab = null;
		List<String> started = List.of();
		if (start && s.remoteHosts().isEmpty()) {
			lab = new LabScript(LabScript.require("--start", "./lab bench (or pass --no-start)"), null);
			started = lab.startNeeded(s.catalog(), s.targets());
			if (!started.isEmpty()) {
				out.println("started " + started + "; they are stopped when this run ends");
			}
		}
		Path dir;
		try {
			Reachability.check(s.targets(), s.catalog(), s.jmeterProperties(),
					new Reachability.How(start && s.remoteHosts().isEmpty(), !s.remoteHosts().isEmpty()),
					Duration.ofSeconds(3));
			dir = Runs.createRunDir(s.resultsRoot());
		}
		catch (RuntimeException e) {
			if (lab != null) {
				lab.stop(started);
			}
			throw e;
		}
		Runs.markIncomplete(dir, "run in progress (or interrupted)");
		System.setProperty("lab.log", dir.resolve("jmeter.log").toString());
		return new RunDirectory(dir, lab, started);
	}

	public Path dir() {
		return dir;
	}

	public long elapsedSeconds() {
		return (System.nanoTime() - startNanos) / 1_000_000_000L;
	}

	public void complete() throws IOException {
		Runs.markComplete(dir);
		done = true;
	}

	/** Records why the run failed (written into the INCOMPLETE marker on close). */
	public void fail(Throwable e) {
		failure = "failed: " + (e instanceof LabException ? e.getMessage() : e.toString());
	}

	@Override
	public void close() {
		if (!done) {
			Runs.markIncomplete(dir, failure != null ? failure : "failed before the report was written");
			done = true;
		}
		try {
			Runtime.getRuntime().removeShutdownHook(hook);
		}
		catch (IllegalStateException e) {
			// already shutting down
		}
		if (lab != null) {
			lab.stop(started);
		}
	}

}
