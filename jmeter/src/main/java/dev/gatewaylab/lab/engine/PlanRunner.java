package dev.gatewaylab.lab.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.JMeter;
import org.apache.jmeter.engine.DistributedRunner;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;

/**
 * Runs one JMeter plan in-process (StandardJMeterEngine) or on remote jmeter-server engines
 * (DistributedRunner, as {@code jmeter -R host1,host2} does), with {@code -J} properties and a {@link LabCollector}.
 */
public final class PlanRunner {

    private final List<String> remoteHosts;

    public PlanRunner(List<String> remoteHosts) {
        this.remoteHosts = List.copyOf(remoteHosts);
    }

    public boolean isRemote() {
        return !remoteHosts.isEmpty();
    }

    /** Loads the plan, applies the properties (what {@code -Jkey=value} does) and returns the tree to run. */
    public static HashTree load(Path plan, Map<String, String> properties) throws IOException {
        properties.forEach(JMeterUtils::setProperty);
        HashTree tree = SaveService.loadTree(plan.toFile());
        return JMeter.convertSubTree(tree, true);
    }

    /**
     * Runs the plan to its end; waits at most {@code maxWait}, then stops the engine.
     *
     * @param jtl CSV result file to write, or {@code null} for no file (warm-up)
     */
    public void run(Path plan, Map<String, String> properties, Path jtl, LabCollector.SampleSink sink,
                    Duration maxWait) throws IOException, InterruptedException {
        HashTree tree = load(plan, properties);
        LabCollector collector = new LabCollector(sink);
        collector.setName("lab-collector");
        if (jtl != null) {
            Files.createDirectories(jtl.toAbsolutePath().getParent());
            collector.setFilename(jtl.toAbsolutePath().toString());
        }
        Object root = tree.getArray()[0];
        tree.add(root, collector);
        EndLatch end = new EndLatch(Math.max(1, remoteHosts.size()));
        tree.add(root, end);
        if (isRemote()) {
            runRemote(tree, properties, end, maxWait);
        } else {
            runLocal(tree, end, maxWait);
        }
    }

    private static void runLocal(HashTree tree, EndLatch end, Duration maxWait) throws InterruptedException {
        StandardJMeterEngine engine = new StandardJMeterEngine();
        engine.configure(tree);
        Thread thread = new Thread(engine, "lab-jmeter-engine");
        thread.start();
        try {
            if (!end.await(maxWait)) {
                engine.stopTest(true);
            }
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            engine.stopTest(true);
            thread.join(TimeUnit.SECONDS.toMillis(10));
            throw e;
        }
    }

    /**
     * As {@code jmeter -R hosts -G...}: the plan's {@code __P} functions are evaluated on the servers, so the
     * properties go to every engine (the -G route); each host must run {@code jmeter-server} 5.6.3. Samples of all
     * engines come back to the {@link LabCollector}, so the JTL and the live metrics aggregate every engine.
     */
    private void runRemote(HashTree tree, Map<String, String> properties, EndLatch end, Duration maxWait)
            throws InterruptedException {
        java.util.Properties remoteProps = new java.util.Properties();
        remoteProps.putAll(properties);
        DistributedRunner runner = new DistributedRunner(remoteProps);
        runner.setStdout(System.out);
        runner.setStdErr(System.err);
        runner.init(new ArrayList<>(remoteHosts), tree);
        runner.start();
        try {
            if (!end.await(maxWait)) {
                runner.stop();
            }
        } catch (InterruptedException e) {
            runner.stop();
            throw e;
        }
    }

    /** Counts testEnded notifications: one local engine, or one per remote host. */
    public static final class EndLatch extends AbstractTestElement implements TestStateListener,
            org.apache.jmeter.engine.util.NoThreadClone, org.apache.jmeter.samplers.Remoteable {

        private static final long serialVersionUID = 1L;
        private final transient CountDownLatch latch;

        public EndLatch(int engines) {
            this.latch = new CountDownLatch(engines);
        }

        boolean await(Duration d) throws InterruptedException {
            return latch.await(d.toMillis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public void testStarted() {
        }

        @Override
        public void testStarted(String host) {
        }

        @Override
        public void testEnded() {
            latch.countDown();
        }

        @Override
        public void testEnded(String host) {
            latch.countDown();
        }

        @Override
        public Object clone() {
            return this;
        }
    }
}
