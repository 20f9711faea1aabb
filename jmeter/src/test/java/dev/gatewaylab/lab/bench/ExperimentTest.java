package dev.gatewaylab.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gatewaylab.lab.result.RunResult;
import dev.gatewaylab.lab.result.TargetResult;
import dev.gatewaylab.lab.run.LabException;
import dev.gatewaylab.lab.run.Target;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentTest {

    private final Target gateway = new Target("gateway", "gateway", URI.create("http://127.0.0.1:8080"), "gateway",
            URI.create("http://127.0.0.1:9080"));

    private final Target direct = new Target("direct", "direct", URI.create("http://127.0.0.1:8081"), "study-service",
            URI.create("http://127.0.0.1:9081"));

    private Target ofKind(String kind) {
        return kind.equals("gateway") ? gateway : direct;
    }

    @Test
    void loggingVariantsRestartTheGatewayWithTheirEnvironment() {
        List<Target> targets = Experiment.named("logging").targets(this::ofKind);
        assertThat(targets).extracting(Target::name).containsExactly("off", "logback", "log4j2-sync", "log4j2-async");
        assertThat(targets).allSatisfy(t -> {
            assertThat(t.service()).isEqualTo("gateway");
            assertThat(t.url()).isEqualTo(gateway.url());
            assertThat(t.plan()).isEqualTo(gateway.plan());
        });
        assertThat(targets.get(1).restartEnv())
                .containsExactlyInAnyOrderEntriesOf(Map.of("GATEWAY_LOGGING_MODE", "async", "GATEWAY_LOGGING_BACKEND", "logback"));
    }

    @Test
    void apmExperimentRestartsTheGatewayWithoutThenWithTheAgent() {
        List<Target> targets = Experiment.named("apm").targets(this::ofKind);
        assertThat(targets).extracting(Target::name).containsExactly("off", "scouter");
        assertThat(targets.get(0).restartEnv()).containsExactlyEntriesOf(Map.of("LAB_APM", "off"));
        assertThat(targets.get(1).restartEnv()).containsExactlyEntriesOf(Map.of("LAB_APM", "scouter"));
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
        List<TargetResult> results = List.of(open("platform-direct", 800, 100), open("platform-gateway", 900, 99.5),
                open("virtual-direct", 790, 100), open("virtual-gateway", 3800, 97));
        assertThat(Answer.openExperimentSentence("virtual-threads", 600, results))
                .startsWith("Virtual-threads experiment at 600 req/s (open model), p99 / errors: platform-direct 800 ms / 0.00 %")
                .endsWith("the gateway adds at p99: platform +100 ms, virtual +3,010 ms.");
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
        assertThat(Answer.experimentSentence("tuning", results, ratios, Map.of()))
                .startsWith("Tuning experiment, against defaults").contains("nio ×0.950 ± ");
    }

    @Test
    void jdkMajorVersionComesFromTheReleaseFile(@TempDir Path jdk) throws Exception {
        Files.writeString(jdk.resolve("release"), "IMPLEMENTOR=\"Eclipse Adoptium\"\nJAVA_VERSION=\"25.0.3\"\n");
        assertThat(Tuning.version(jdk)).contains(25);
        assertThat(Tuning.version(jdk.resolve("missing"))).isEmpty();
    }

    private static TargetResult open(String name, long p99, double success) {
        return new TargetResult(name, "slow-upstream", "http://127.0.0.1:8080", 100, 600, 0, 1, 1, 1, 1, 1, p99, success,
                Map.of(), new double[] {600, 600}, new double[] {p99, p99}, Map.of(), 600, null, null, null, null);
    }

    private static TargetResult result(String name, double... tps) {
        return new TargetResult(name, "gateway", "http://127.0.0.1:8080", 100, 0, 0, 1, 1, 1, 1, 1, 1, 100, Map.of(),
                tps, new double[] {1, 1, 1}, Map.of(), 0, null, null, null, null);
    }
}
