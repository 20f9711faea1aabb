package dev.gatewaylab.runner.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gatewaylab.runner.result.RunResult;
import dev.gatewaylab.runner.result.TargetResult;
import dev.gatewaylab.runner.cli.LabException;
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
	void aToggledVariantIsComparedWithItsOwnOffArm() {
		List<TargetResult> results = List.of(result("logback", 940, 950, 930), result("logback-off", 1000, 1000, 1000),
				result("log4j2-async", 990, 985, 995), result("log4j2-async-off", 1000, 1000, 1000));
		List<RunResult.Ratio> ratios = Answer.ratiosToOffArm(results, "off");
		assertThat(ratios).extracting(RunResult.Ratio::of).containsExactly("logback", "log4j2-async");
		assertThat(ratios).extracting(RunResult.Ratio::to).containsExactly("logback-off", "log4j2-async-off");
		assertThat(ratios.get(0).reps()).containsExactly(0.94, 0.95, 0.93);
		String sentence = Answer.toggleSentence("logging", Experiment.named("logging").toggle(), results, ratios,
				Map.of("logback", "gateway", "log4j2-async", "gateway"), 0.03, 2);
		assertThat(sentence)
			.startsWith("Logging experiment, the access log on ÷ off in the same JVM (switched in 2 s segments")
			.contains("logback ×0.940 ± 0.025, -6.0 ± 2.5 points")
			.contains("NOT within 3 % of logback-off")
			.contains("log4j2-async ×0.990 ± 0.012, -1.0 ± 1.2 points")
			.contains("within 3 % of log4j2-async-off");
		assertThat(Comparisons.ofPairs(results, "off")).hasSize(2)
			.first()
			.asString()
			.startsWith("logback vs logback-off: ");
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
	void openExperimentAnswersWithP99AndWhatTheGatewayAdds() {
		List<TargetResult> results = List.of(open("platform-direct", 800L, 100), open("platform-gateway", 900L, 99.5),
				open("virtual-direct", 790L, 100), open("virtual-gateway", 3800L, 97));
		assertThat(Answer.openExperimentSentence("virtual-threads", 600, results)).startsWith(
				"Virtual-threads experiment at 600 req/s (open model), p99 / errors: platform-direct 800 ms / 0.00 %")
			.endsWith("the gateway adds at p99: platform +100 ms, virtual +3,010 ms.");
		// a variant whose samples could not support a p99: said so, and nothing added for
		// it
		List<TargetResult> few = List.of(open("platform-direct", 800L, 100), open("platform-gateway", null, 100));
		assertThat(Answer.openExperimentSentence("virtual-threads", 600, few))
			.contains("platform-gateway p99 not resolved (100 samples) / 0.00 %")
			.doesNotContain("adds");
	}

	@Test
	void variantRatiosArePerRepetitionAgainstTheBaseline() {
		List<TargetResult> results = List.of(result("defaults", 1000, 1000, 1000), result("nio", 900, 950, 1000));
		List<RunResult.Ratio> ratios = Answer.ratiosToFirst(results);
		assertThat(ratios).hasSize(1);
		assertThat(ratios.get(0).of()).isEqualTo("nio");
		assertThat(ratios.get(0).to()).isEqualTo("defaults");
		assertThat(ratios.get(0).reps()).containsExactly(0.9, 0.95, 1.0);
		assertThat(ratios.get(0).mean()).isEqualTo(0.95, org.assertj.core.data.Offset.offset(1e-9));
		assertThat(Answer.experimentSentence("tuning", results, ratios, Map.of(), 0))
			.startsWith("Tuning experiment, against defaults")
			.contains("nio ×0.950 ± ")
			.doesNotContain("within");
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
		// allowed clients of the largest list in play (allowed by 30 M is allowed by its
		// first 3 M rules too)
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
	void aToleranceGivesAVerdictFromTheWholeInterval() {
		assertThat(Answer.verdict(new RunResult.Ratio("30m", "off", 0.99, 0.01, new double[0]), "off", 0.03))
			.isEqualTo("within 3 % of off");
		assertThat(Answer.verdict(new RunResult.Ratio("30m", "off", 0.90, 0.02, new double[0]), "off", 0.03))
			.isEqualTo("NOT within 3 % of off");
		assertThat(Answer.verdict(new RunResult.Ratio("30m", "off", 1.10, 0.02, new double[0]), "off", 0.03))
			.isEqualTo("NOT within 3 % of off");
		assertThat(Answer.verdict(new RunResult.Ratio("30m", "off", 0.98, 0.02, new double[0]), "off", 0.03))
			.startsWith("undecided at 3 % (interval 0.960–1.000");
		List<TargetResult> results = List.of(result("off", 1000, 1000, 1000), result("30m", 990, 1000, 1010));
		assertThat(Answer.experimentSentence("deny-list", results, Answer.ratiosToFirst(results), Map.of(), 0.03))
			.startsWith("Deny-list experiment, against off")
			.contains("30m ×1.000 ± ")
			.contains("within 3 % of off");
	}

	@Test
	void jdkMajorVersionComesFromTheReleaseFile(@TempDir Path jdk) throws Exception {
		Files.writeString(jdk.resolve("release"), "IMPLEMENTOR=\"Eclipse Adoptium\"\nJAVA_VERSION=\"25.0.3\"\n");
		assertThat(Tuning.version(jdk)).contains(25);
		assertThat(Tuning.version(jdk.resolve("missing"))).isEmpty();
	}

	private static TargetResult open(String name, Long p99, double success) {
		return new TargetResult(name, "slow-upstream", "http://127.0.0.1:8080", 100, 600, 0, 1, 1, 1, 1L, 1L, p99,
				success, Map.of(), new double[] { 600, 600 }, p99 == null ? new double[0] : new double[] { p99, p99 },
				Map.of(), 600, null, null, null, null);
	}

	private static TargetResult result(String name, double... tps) {
		return new TargetResult(name, "gateway", "http://127.0.0.1:8080", 100, 0, 0, 1, 1, 1, 1L, 1L, 1L, 100, Map.of(),
				tps, new double[] { 1, 1, 1 }, Map.of(), 0, null, null, null, null);
	}

}
