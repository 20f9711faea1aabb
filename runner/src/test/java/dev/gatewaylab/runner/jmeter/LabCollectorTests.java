package dev.gatewaylab.runner.jmeter;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.jmeter.engine.TreeCloner;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.TestPlan;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With remote engines JMeter clones the plan once per engine
 * (ClientJMeterEngine.configure: a TreeCloner that ignores NoThreadClone) and gives each
 * engine's samples to its clone: every clone must feed the one sink and the one JTL, and
 * a lost engine must not leave the JTL open.
 */
class LabCollectorTests {

	@TempDir
	Path tmp;

	private static SampleEvent sample(String thread) {
		SampleResult r = SampleResult.createTestSample(5);
		r.setSuccessful(true);
		r.setThreadName(thread);
		r.setSampleLabel("GET /x");
		return new SampleEvent(r, "tg");
	}

	/**
	 * The collector as each engine gets it: the plan tree cloned as
	 * ClientJMeterEngine.configure does.
	 */
	private static LabCollector cloneForAnEngine(LabCollector original) {
		HashTree tree = new HashTree();
		TestPlan plan = new TestPlan("p");
		tree.add(plan);
		tree.add(plan, original);
		TreeCloner cloner = new TreeCloner(false);
		tree.traverse(cloner);
		HashTree cloned = cloner.getClonedTree();
		Object clone = cloned.getTree(cloned.getArray()[0]).getArray()[0];
		assertThat(clone).isInstanceOf(LabCollector.class).isNotSameAs(original);
		return (LabCollector) clone;
	}

	@Test
	void everyEnginesCloneFeedsTheOneSinkAndTheOneJtl() throws Exception {
		JMeterHome.init(TestHome.PATH);
		List<String> seen = new CopyOnWriteArrayList<>();
		LabCollector original = new LabCollector(r -> seen.add(r.getThreadName()));
		Path jtl = tmp.resolve("r.jtl");
		original.setFilename(jtl.toString());
		LabCollector a = cloneForAnEngine(original);
		LabCollector b = cloneForAnEngine(original);
		a.testStarted("127.0.0.2");
		b.testStarted("127.0.0.3:1199");
		a.sampleOccurred(sample("127.0.0.2-tg 1-1"));
		b.sampleOccurred(sample("127.0.0.3:1199-tg 1-1"));
		b.sampleOccurred(sample("127.0.0.3:1199-tg 1-2"));
		a.testEnded("127.0.0.2");
		b.testEnded("127.0.0.3:1199");

		assertThat(seen).containsExactlyInAnyOrder("127.0.0.2-tg 1-1", "127.0.0.3:1199-tg 1-1",
				"127.0.0.3:1199-tg 1-2");
		assertThat(Files.readAllLines(jtl)).hasSize(1 + 3).first().asString().startsWith("timeStamp,");
	}

	@Test
	void aLostEngineIsEndedSoTheJtlIsClosedAndComplete() throws Exception {
		JMeterHome.init(TestHome.PATH);
		LabCollector original = new LabCollector(r -> {
		});
		Path jtl = tmp.resolve("lost.jtl");
		original.setFilename(jtl.toString());
		LabCollector a = cloneForAnEngine(original);
		LabCollector b = cloneForAnEngine(original);
		a.testStarted("e1");
		b.testStarted("e2");
		a.sampleOccurred(sample("e1-tg 1-1"));
		b.sampleOccurred(sample("e2-tg 1-1"));
		a.testEnded("e1"); // e2 never reports its end: it was killed

		original.endLost(Set.of("e1", "e2"));
		original.endLost(Set.of("e2")); // idempotent: an engine ends once

		List<String> lines = Files.readAllLines(jtl);
		assertThat(lines).hasSize(3);
		assertThat(lines.get(2)).contains("e2-tg 1-1"); // flushed, whole last line
	}

	@Test
	void aCopyDeserializedInAnEngineWritesNoFileAndFeedsNothing() throws Exception {
		JMeterHome.init(TestHome.PATH);
		List<String> seen = new CopyOnWriteArrayList<>();
		LabCollector original = new LabCollector(r -> seen.add(r.getThreadName()));
		Path jtl = tmp.resolve("engine-side.jtl");
		original.setFilename(jtl.toString());
		java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
		try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
			out.writeObject(original); // as RMI would send it to a jmeter-server
		}
		LabCollector inEngine;
		try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(
				new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
			inEngine = (LabCollector) in.readObject();
		}
		assertThat(original.runnerSide()).isTrue();
		assertThat(inEngine.runnerSide()).isFalse();
		assertThat(inEngine.getFilename()).isEqualTo(jtl.toString());

		inEngine.testStarted();
		inEngine.testStarted("127.0.0.2");
		inEngine.sampleOccurred(sample("127.0.0.2-tg 1-1"));
		inEngine.testEnded("127.0.0.2");
		inEngine.testEnded();

		assertThat(jtl).doesNotExist();
		assertThat(seen).isEmpty();
	}

}
