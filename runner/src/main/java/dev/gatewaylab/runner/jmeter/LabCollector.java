package dev.gatewaylab.runner.jmeter;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.jmeter.reporters.ResultCollector;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;

/**
 * Writes the JTL (as JMeter's ResultCollector does) and feeds every top-level sample to a
 * {@link SampleSink} (live Prometheus metrics, progress counters, the warm-up count).
 * With remote engines JMeter clones every plan element once per engine
 * ({@code ClientJMeterEngine.configure}) and sends each engine's samples to its clone: a
 * clone therefore shares the original's sink and its record of which engines started and
 * ended, so the samples of every engine reach the one sink. The JTL is shared too:
 * ResultCollector keeps one writer per file name.
 */
public class LabCollector extends ResultCollector {

	private static final long serialVersionUID = 1L;

	/** Receives samples; must be thread-safe. */
	public interface SampleSink {

		void sample(SampleResult result);

	}

	private transient SampleSink sink;

	private transient Engines engines = new Engines();

	/**
	 * False in a copy deserialized elsewhere — inside a jmeter-server engine, should
	 * JMeter ever send it there instead of its remote wrapper: that copy has no sink and
	 * must write no file on the engine's machine, so it does nothing.
	 */
	private transient boolean runnerSide = true;

	/**
	 * For JMeter's clone (a no-argument constructor, then the properties are copied); see
	 * {@link #clone()}.
	 */
	public LabCollector() {
		this(null);
	}

	public LabCollector(SampleSink sink) {
		this.sink = sink;
	}

	@Override
	public Object clone() {
		LabCollector copy = (LabCollector) super.clone();
		copy.sink = sink;
		copy.engines = engines;
		copy.runnerSide = runnerSide;
		return copy;
	}

	/**
	 * Whether this is the runner's collector (or its clone), not a copy deserialized in
	 * an engine.
	 */
	public boolean runnerSide() {
		return runnerSide;
	}

	@Override
	public void sampleOccurred(SampleEvent event) {
		if (!runnerSide) {
			return;
		}
		if (!getFilename().isEmpty()) {
			super.sampleOccurred(event);
		}
		if (sink != null) {
			sink.sample(event.getResult());
		}
	}

	@Override
	public void testStarted(String host) {
		if (!runnerSide) {
			return;
		}
		engines.started.add(host);
		super.testStarted(host);
	}

	@Override
	public void testEnded(String host) {
		if (!runnerSide) {
			return;
		}
		if (engines.ended.add(host)) {
			super.testEnded(host);
		}
	}

	/**
	 * Ends the test for engines that started but will never say so (lost mid-run), as
	 * their own testEnded would: once no engine is left, ResultCollector closes the JTL,
	 * so no half-written file stays open.
	 */
	public void endLost(Set<String> hosts) {
		for (String host : hosts) {
			if (engines.started.contains(host)) {
				testEnded(host);
			}
		}
	}

	/**
	 * The engines (host[:port] as given to JMeter) that reported the test started / ended
	 * to this collector.
	 */
	private static final class Engines {

		final Set<String> started = ConcurrentHashMap.newKeySet();

		final Set<String> ended = ConcurrentHashMap.newKeySet();

	}

}
