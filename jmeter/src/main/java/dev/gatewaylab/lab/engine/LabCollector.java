package dev.gatewaylab.lab.engine;

import org.apache.jmeter.reporters.ResultCollector;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;

/**
 * Writes the JTL (as JMeter's ResultCollector does) and feeds every top-level sample to a {@link SampleSink}
 * (live Prometheus metrics, progress counters). A ResultCollector is Remoteable, so with remote engines the
 * samples of every engine come back to this one instance on the runner.
 */
public class LabCollector extends ResultCollector {

    private static final long serialVersionUID = 1L;

    /** Receives samples; must be thread-safe. */
    public interface SampleSink {
        void sample(SampleResult result);
    }

    private final transient SampleSink sink;

    public LabCollector(SampleSink sink) {
        this.sink = sink;
    }

    @Override
    public void sampleOccurred(SampleEvent event) {
        if (!getFilename().isEmpty()) {
            super.sampleOccurred(event);
        }
        if (sink != null) {
            sink.sample(event.getResult());
        }
    }

}
