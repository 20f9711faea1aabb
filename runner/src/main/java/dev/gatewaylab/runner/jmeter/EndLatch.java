package dev.gatewaylab.runner.jmeter;

import java.time.Duration;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.samplers.Remoteable;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;

/**
 * Learns when the test started and ended: on the in-process engine, or on each remote
 * engine (by the host[:port] JMeter reports). Remoteable, so every engine's start and end
 * come back to this one instance (its clone is itself).
 */
public final class EndLatch extends AbstractTestElement implements TestStateListener, NoThreadClone, Remoteable {

	private static final long serialVersionUID = 1L;

	private static final String LOCAL = "";

	private final transient Set<String> started = ConcurrentHashMap.newKeySet();

	private final transient Set<String> ended = ConcurrentHashMap.newKeySet();

	private final transient Object lock = new Object();

	/** Waits until the local engine ended (or {@code d} passed); true when it did. */
	public boolean awaitLocal(Duration d) throws InterruptedException {
		return await(Set.of(LOCAL), d);
	}

	/**
	 * Waits until every one of {@code hosts} ended, at most {@code d}; true when they all
	 * did.
	 */
	public boolean await(Collection<String> hosts, Duration d) throws InterruptedException {
		long deadline = System.nanoTime() + d.toNanos();
		synchronized (lock) {
			while (!ended.containsAll(hosts)) {
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					return false;
				}
				lock.wait(Math.max(1, left / 1_000_000L));
			}
			return true;
		}
	}

	public boolean started(String host) {
		return started.contains(host);
	}

	public boolean ended(String host) {
		return ended.contains(host);
	}

	@Override
	public void testStarted() {
		testStarted(LOCAL);
	}

	@Override
	public void testStarted(String host) {
		started.add(host);
	}

	@Override
	public void testEnded() {
		testEnded(LOCAL);
	}

	@Override
	public void testEnded(String host) {
		synchronized (lock) {
			ended.add(host);
			lock.notifyAll();
		}
	}

	@Override
	public Object clone() {
		return this;
	}

}
