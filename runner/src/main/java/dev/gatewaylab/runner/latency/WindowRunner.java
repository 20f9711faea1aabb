package dev.gatewaylab.runner.latency;

import io.hyperfoil.api.config.Benchmark;
import io.hyperfoil.api.config.Phase;
import io.hyperfoil.api.session.PhaseInstance;
import io.hyperfoil.api.statistics.StatisticsSnapshot;
import io.hyperfoil.core.impl.SimulationRunner;
import io.hyperfoil.core.impl.statistics.StatisticsCollector;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs a benchmark of one phase for one window and returns as soon as its last request
 * has answered. Hyperfoil's own {@code LocalSimulationRunner} polls the phase's status at
 * most once a second and can miss the wake-up the phase's end sends it (it signals a
 * condition nobody is waiting on yet), so a 1 s window took 1 or 2 s — a second of idle
 * generator in every second window. This runner sleeps until the phase's end, finishes
 * it, and waits on a latch the phase's termination counts down.
 */
final class WindowRunner extends SimulationRunner {

	/** How often a finished phase is asked to terminate while requests are in flight. */
	private static final long TERMINATE_POLL_MS = 5;

	/** How long a phase told to terminate may take to stop its sessions. */
	private static final long TERMINATE_GRACE_MS = 5000;

	private final Phase phase;

	private final StatisticsSnapshot total = new StatisticsSnapshot();

	private final CountDownLatch terminated = new CountDownLatch(1);

	private final AtomicBoolean throttled = new AtomicBoolean();

	private volatile long startMillis;

	WindowRunner(Benchmark benchmark) {
		super(benchmark, "lab-latency", 0, error -> {
		});
		if (benchmark.phases().size() != 1) {
			throw new IllegalArgumentException("a window is one phase, not " + benchmark.phases().size());
		}
		this.phase = benchmark.phases().iterator().next();
	}

	/**
	 * Opens the connections, runs the phase for its duration, waits for the requests in
	 * flight (at most until the phase's max duration, then terminates it) and returns
	 * every response's statistics added together.
	 */
	StatisticsSnapshot run() {
		init();
		try {
			CountDownLatch open = new CountDownLatch(1);
			openConnections(result -> open.countDown());
			open.await();
			String name = phase.name();
			startPhase(name);
			PhaseInstance instance = instances.get(name);
			long start = instance.absoluteStartTime();
			startMillis = start;
			sleepUntil(start + phase.duration());
			finishPhase(name);
			long deadline = start + phase.maxDuration();
			while (!terminated.await(TERMINATE_POLL_MS, TimeUnit.MILLISECONDS)) {
				if (System.currentTimeMillis() >= deadline) {
					terminatePhase(name);
					break;
				}
				if (instance.status() == PhaseInstance.Status.FINISHED) {
					tryTerminatePhase(name);
				}
			}
			// a phase told to terminate stops its sessions at once; should it not, the
			// window has no statistics and the run says the generator produced nothing
			if (!terminated.await(TERMINATE_GRACE_MS, TimeUnit.MILLISECONDS)) {
				return new StatisticsSnapshot();
			}
			if (instance.getError() != null) {
				throw new IllegalStateException("the latency generator failed: " + instance.getError().getMessage(),
						instance.getError());
			}
			return total;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			terminatePhase(phase.name());
			throw new IllegalStateException("interrupted while the latency generator ran", ex);
		}
		finally {
			shutdown();
		}
	}

	/** When the phase started (epoch ms); 0 when it did not start. */
	long startMillis() {
		return startMillis;
	}

	/** Whether the phase ran out of sessions (arrivals it could not start). */
	boolean throttled() {
		return throttled.get();
	}

	@Override
	protected CompletableFuture<Void> phaseChanged(Phase phase, PhaseInstance.Status status,
			boolean sessionLimitExceeded, Throwable error) {
		if (sessionLimitExceeded) {
			throttled.set(true);
		}
		CompletableFuture<Void> changed = super.phaseChanged(phase, status, sessionLimitExceeded, error);
		if (status != PhaseInstance.Status.TERMINATED) {
			return changed;
		}
		return changed.whenComplete((nil, failure) -> {
			try {
				StatisticsCollector collector = new StatisticsCollector(benchmark);
				visitStatistics(phase, collector);
				collector.visitStatistics((p, stepId, metric, snapshot, countDown) -> total.add(snapshot), null);
			}
			finally {
				terminated.countDown();
			}
		});
	}

	private static void sleepUntil(long epochMillis) throws InterruptedException {
		long left;
		while ((left = epochMillis - System.currentTimeMillis()) > 0) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(left));
			if (Thread.interrupted()) {
				throw new InterruptedException();
			}
		}
	}

}
