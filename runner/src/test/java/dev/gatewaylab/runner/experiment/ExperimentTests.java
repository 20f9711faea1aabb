package dev.gatewaylab.runner.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gatewaylab.runner.run.LabException;
import dev.gatewaylab.runner.run.Target;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentTests {

	private final Target gateway = new Target("gateway", "gateway", URI.create("http://127.0.0.1:8080"), "gateway",
			URI.create("http://127.0.0.1:9080"));

	private final Target direct = new Target("direct", "direct", URI.create("http://127.0.0.1:8081"), "study-service",
			URI.create("http://127.0.0.1:9081"));

	private Target ofKind(String kind) {
		return kind.equals("gateway") ? gateway : direct;
	}

	@Test
	void loggingVariantsRestartTheGatewayPerBackendAndEachIsMeasuredAgainstItsOwnOffArm() {
		Experiment e = Experiment.named("logging");
		List<Target> targets = e.targets(this::ofKind);
		assertThat(targets).extracting(Target::name)
			.containsExactly("logback", "logback-off", "log4j2-sync", "log4j2-sync-off", "log4j2-async",
					"log4j2-async-off");
		assertThat(targets).allSatisfy(t -> {
			assertThat(t.service()).isEqualTo("gateway");
			assertThat(t.url()).isEqualTo(gateway.url());
			assertThat(t.plan()).isEqualTo(gateway.plan());
		});
		// the off arm is the same JVM: same environment as its variant, the loggers
		// endpoint exposed for the switch
		assertThat(targets.get(0).restartEnv()).isEqualTo(targets.get(1).restartEnv())
			.containsEntry("GATEWAY_LOGGING_BACKEND", "logback")
			.containsEntry("MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE", "health,info,prometheus,loggers");
		assertThat(e.toggle().managementPath()).isEqualTo("/actuator/loggers/dev.gatewaylab.gateway.access");
		assertThat(e.tolerance()).isEqualTo(0.03);
		assertThat(e.defaultDurationSeconds(false)).isEqualTo(60);
		assertThat(e.select("log4j2-async").targets(this::ofKind)).extracting(Target::name)
			.containsExactly("log4j2-async", "log4j2-async-off");
	}

	@Test
	void apmExperimentRestartsTheGatewayWithoutThenWithTheAgent() {
		List<Target> targets = Experiment.named("apm").targets(this::ofKind);
		assertThat(targets).extracting(Target::name).containsExactly("off", "scouter");
		assertThat(targets.get(0).restartEnv()).containsExactlyEntriesOf(Map.of("LAB_APM", "off"));
		assertThat(targets.get(1).restartEnv()).containsExactlyEntriesOf(Map.of("LAB_APM", "scouter"));
	}

	@Test
	void tracingExperimentRestartsTheGatewayWithoutTracingThenSampledAtZeroTenAndAHundredPercent() {
		Experiment e = Experiment.named("tracing");
		List<Target> targets = e.targets(this::ofKind);
		assertThat(targets).extracting(Target::name)
			.containsExactly("absent", "sampled-0", "sampled-10", "sampled-100");
		assertThat(targets.get(0).restartEnv()).containsExactlyEntriesOf(Map.of("LAB_TRACING", "off"));
		assertThat(targets.get(2).restartEnv()).containsEntry("LAB_TRACING", "zipkin")
			.containsEntry("TRACING_SAMPLING_PROBABILITY", "0.1");
		assertThat(targets.get(3).restartEnv()).containsEntry("TRACING_SAMPLING_PROBABILITY", "1.0");
		assertThat(e.service()).isEqualTo("gateway");
		assertThat(e.tolerance()).isEqualTo(0.10);
		assertThat(e.select("sampled-10").targets(this::ofKind)).extracting(Target::name)
			.containsExactly("absent", "sampled-10");
	}

	@Test
	void selectingVariantsKeepsTheBaselineFirst() {
		List<Target> targets = Experiment.named("tuning").select("nio,g1").targets(this::ofKind);
		assertThat(targets).extracting(Target::name).containsExactly("defaults", "nio", "g1");
		assertThat(targets.get(0).restartEnv()).isEmpty();
		assertThat(targets.get(1).restartEnv()).containsEntry("GATEWAY_NETTY_NATIVE", "false");
	}

	@Test
	void unknownExperimentOrVariantIsAUsageErrorNamingTheChoices() {
		assertThatThrownBy(() -> Experiment.named("speed")).isInstanceOf(LabException.class)
			.hasMessageContaining("unknown experiment 'speed'");
		assertThatThrownBy(() -> Experiment.named("tuning").select("nio,fast")).isInstanceOf(LabException.class)
			.hasMessageContaining("no variant 'fast'");
	}

	@Test
	void virtualThreadsRestartStudyServiceAndMeasureBothPathsOnTheSlowPlanInTheOpenModel() {
		Experiment e = Experiment.named("virtual-threads");
		assertThat(e.service()).isEqualTo("study-service");
		assertThat(e.openRate()).isEqualTo(600);
		List<Target> targets = e.targets(this::ofKind);
		assertThat(targets).extracting(Target::name)
			.containsExactly("platform-direct", "platform-gateway", "virtual-direct", "virtual-gateway");
		assertThat(targets).extracting(Target::plan).containsOnly("slow-upstream");
		assertThat(targets.get(1).url()).isEqualTo(gateway.url());
		assertThat(targets.get(1).service()).isEqualTo("gateway");
		assertThat(targets.get(3).restartEnv()).containsEntry("STUDY_SERVICE_VIRTUAL_THREADS", "true");
	}

	@Test
	void virtualThreadsGoThroughTheMvcGatewayTooWhenTheTargetsSaySo() {
		Target mvc = new Target("gateway-mvc", "gateway-mvc", URI.create("http://127.0.0.1:8085"), "gateway-mvc",
				URI.create("http://127.0.0.1:9085"));
		Experiment e = Through.of(Experiment.named("virtual-threads"), List.of("direct", "gateway", "gateway-mvc"));
		List<Target> targets = e.targets((kind) -> kind.equals("gateway-mvc") ? mvc : ofKind(kind));
		assertThat(targets).extracting(Target::name)
			.containsExactly("platform-direct", "platform-gateway", "platform-gateway-mvc", "virtual-direct",
					"virtual-gateway", "virtual-gateway-mvc");
		assertThat(targets.get(2).service()).isEqualTo("gateway-mvc");
		assertThat(targets.get(5).restartEnv()).containsEntry("STUDY_SERVICE_VIRTUAL_THREADS", "true");
		assertThat(e.service()).isEqualTo("study-service");
		assertThat(Through.of(Experiment.named("virtual-threads"), null).kinds()).containsExactly("direct", "gateway");
	}

	@Test
	void theTargetsOfAnExperimentThatRestartsWhatItMeasuresCannotBeChosen() {
		assertThatThrownBy(() -> Through.of(Experiment.named("tuning"), List.of("gateway-mvc")))
			.isInstanceOf(LabException.class)
			.hasMessageContaining("measures gateway only")
			.hasMessageContaining("tuning-mvc");
		assertThatThrownBy(() -> Through.of(Experiment.named("virtual-threads"), List.of("direct", "monolith")))
			.isInstanceOf(LabException.class)
			.hasMessageContaining("cannot measure 'monolith'");
	}

	@Test
	void tuningMvcRestartsTheMvcGatewayWithOneLeverTurnedPerVariant() {
		Experiment e = Experiment.named("tuning-mvc");
		assertThat(e.service()).isEqualTo("gateway-mvc");
		assertThat(e.kinds()).containsExactly("gateway-mvc");
		assertThat(e.variants()).extracting(Experiment.Variant::name)
			.startsWith("defaults", "platform-threads", "client-executor-jdk", "all-platform", "simple-client",
					"http2-upgrade");
		assertThat(e.variants().get(0).env()).isEmpty();
		assertThat(e.select("client-executor-jdk").variants()).extracting(v -> v.env())
			.containsExactly(Map.of(), Map.of("GATEWAY_MVC_CLIENT_EXECUTOR", "jdk"));
		assertThat(e.variants()).allSatisfy(v -> assertThat(v.env().keySet())
			.allMatch(k -> k.startsWith("GATEWAY_MVC_") || k.startsWith("GATEWAY_LOG")));
	}

	@Test
	void denyListVariantsRestartTheGatewayWithTheirRuleFileAndAreMeasuredAgainstTheFilterBypassed(@TempDir Path lab) {
		Experiment e = Experiment.named("deny-list", lab);
		assertThat(e.plan()).isEqualTo("deny-list");
		assertThat(e.tolerance()).isEqualTo(0.03);
		assertThat(e.toggle().managementPath()).isEqualTo("/actuator/denylist");
		assertThat(e.toggle().offBody()).isEqualTo("{\"enforced\":false}");
		List<Target> targets = e.targets(this::ofKind);
		assertThat(targets).extracting(Target::name).containsExactly("3m", "3m-off", "30m", "30m-off");
		assertThat(targets).extracting(Target::plan).containsOnly("deny-list");
		assertThat(targets.get(2).restartEnv())
			.containsEntry("GATEWAY_DENY_LIST_FILE", lab.resolve(".lab/deny-list/30m/deny-list.txt").toString())
			.containsEntry("MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE", "health,info,prometheus,denylist");
		assertThat(targets).as("the gateway's default JVM options: the list is mapped, off the heap")
			.allSatisfy(t -> assertThat(t.restartEnv()).doesNotContainKey("GATEWAY_JAVA_OPTS"));
		// allowed clients of the largest list in play (allowed by 30 M is allowed
		// by its first 3 M rules too)
		assertThat(e.properties()).containsEntry("traffic", "allowed")
			.containsEntry("clients", lab.resolve(".lab/deny-list/30m/client-ips.csv").toString());
		assertThat(e.select("3m").properties()).containsEntry("clients",
				lab.resolve(".lab/deny-list/3m/client-ips.csv").toString());
		assertThat(e.inputs()).extracting(Experiment.Input::labArgs)
			.containsExactly(
					List.of("deny-list", "generate", "--rules", "3000000", "--seed", "42", "--out",
							lab.resolve(".lab/deny-list/3m").toString()),
					List.of("deny-list", "generate", "--rules", "30000000", "--seed", "42", "--out",
							lab.resolve(".lab/deny-list/30m").toString()));
		assertThat(e.select("3m").inputs()).hasSize(1);
	}

	@Test
	void jdkMajorVersionComesFromTheReleaseFile(@TempDir Path jdk) throws Exception {
		Files.writeString(jdk.resolve("release"), "IMPLEMENTOR=\"Eclipse Adoptium\"\nJAVA_VERSION=\"25.0.3\"\n");
		assertThat(Tuning.version(jdk)).contains(25);
		assertThat(Tuning.version(jdk.resolve("missing"))).isEmpty();
	}

}
