package dev.gatewaylab.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input and unusable environments end with exit code 2, one line naming the problem
 * and the fix.
 */
class CliErrorsTests {

	@TempDir
	Path tmp;

	LabFixture lab;

	@BeforeEach
	void setUp() throws IOException {
		lab = new LabFixture(tmp.resolve("lab"));
	}

	@AfterEach
	void tearDown() {
		lab.close();
	}

	private void assertUsageError(int code, String... fragments) {
		assertThat(code).isEqualTo(2);
		String err = lab.err().strip();
		assertThat(err).startsWith("error: ").doesNotContain("\n");
		for (String f : fragments) {
			assertThat(err).contains(f);
		}
		assertThat(lab.home.resolve("results")).doesNotExist();
	}

	@Test
	void unknownTargetIsRejected() {
		assertUsageError(lab.run("bench", "--targets", "gateway,proxy"), "unknown target 'proxy'",
				"choose from gateway,direct,monolith,floor,stock,gateway-mvc,nginx");
	}

	@Test
	void unknownPlanIsRejectedWithTheKnownPlans() {
		assertUsageError(lab.run("bench", "--plan", "nosuch"), "unknown plan 'nosuch'",
				"choose from direct,gateway,monolith");
	}

	@Test
	void nonNumericThreadsPropertyIsRejected() {
		assertUsageError(lab.run("bench", "-J", "threads=abc"), "invalid -J threads=abc", "-J threads=8");
	}

	@Test
	void unknownDenyListTrafficIsRejectedWithTheThreeChoices() {
		assertUsageError(lab.run("bench", "-J", "traffic=some"), "invalid -J traffic=some", "-J traffic=allowed");
	}

	@Test
	void negativeDurationIsRejected() {
		assertUsageError(lab.run("bench", "-J", "duration=-5"), "invalid -J duration=-5: must be ≥ 1");
		assertUsageError(lab.run("bench", "--duration", "-1"), "invalid --duration -1");
	}

	@Test
	void nonNumericOptionIsAUsageError() {
		assertUsageError(lab.run("bench", "--threads", "many"), "--threads", "--help");
	}

	@Test
	void nginxNeedsItsUrl() {
		assertUsageError(lab.run("bench", "--targets", "nginx"), "needs --nginx-url");
	}

	@Test
	void unreachableTargetIsNamedWithTheFix() throws IOException {
		int closed = LabFixture.freePort();
		assertUsageError(lab.run("bench", "--targets", "direct", "--direct-url", "http://127.0.0.1:" + closed),
				"target direct does not answer its plan's request: GET http://127.0.0.1:" + closed + "/api/studies/1",
				"start it with ./lab up, or drop --no-start");
		assertUsageError(
				lab.run("bench", "--quick", "--targets", "direct", "--direct-url", "http://127.0.0.1:" + closed,
						"--remote", "127.0.0.2:" + LabFixture.freePort()),
				"target direct does not answer its plan's request", "with --remote the lab starts nothing");
	}

	@Test
	void aTargetThatAnswersItsPlansRequestWithAnotherStatusIsNamed() {
		assertUsageError(lab.run("bench", "--targets", "direct", "--direct-url", lab.url() + "/missing"),
				"target direct answered GET " + lab.url() + "/missing/api/studies/1 with 404, not 200", "./lab status");
	}

	@Test
	void unwritableResultsDirIsRejected() throws IOException {
		Path file = tmp.resolve("not-a-dir");
		Files.writeString(file, "x");
		int code = lab.run("bench", "--targets", "direct", "--direct-url", lab.url(), "--results", file.toString());
		assertThat(code).isEqualTo(2);
		assertThat(lab.err()).startsWith("error: results directory").contains("--results DIR");
	}

	@Test
	void loggingExperimentNeedsTheLabScript() {
		assertUsageError(lab.run("bench", "--experiment", "logging"), "LAB_SCRIPT", "./lab bench --experiment logging");
	}

	@Test
	void targetsOfAnExperimentAreRefusedUnlessItMeasuresPathsToWhatItRestarts() {
		assertUsageError(lab.run("bench", "--experiment", "tuning", "--targets", "gateway-mvc"),
				"--experiment tuning measures gateway only", "--experiment tuning-mvc");
		assertUsageError(lab.run("bench", "--experiment", "virtual-threads", "--targets", "direct,monolith"),
				"--experiment virtual-threads cannot measure 'monolith'", "direct,gateway,gateway-mvc,floor");
	}

	@Test
	void compareNeedsRunJson() {
		int code = lab.run("compare", tmp.toString(), tmp.toString());
		assertThat(code).isEqualTo(2);
		assertThat(lab.err()).contains("has no run.json");
	}

	@Test
	void badSoakInputIsRejectedBeforeAnythingStarts() {
		assertUsageError(lab.run("soak", "--minutes", "0"), "invalid --minutes 0");
		assertUsageError(lab.run("soak", "--seconds", "5"), "a soak needs ≥ 10 s");
		assertUsageError(lab.run("soak", "--seconds", "60", "--interval", "90"), "invalid --interval 90");
		assertUsageError(lab.run("soak", "--rate", "-5"), "invalid --rate -5.0");
		assertUsageError(lab.run("soak", "--max-growth", "-1"), "invalid limit -1.0");
		assertUsageError(lab.run("soak", "--targets", "gateway,direct"), "soak runs one target", "--targets gateway");
	}

	@Test
	void theSharedLoadOptionsAreCheckedAlikeByEveryCommand() {
		for (String command : new String[] { "bench", "sweep", "soak" }) {
			assertUsageError(lab.run(command, "--warmup", "-1"), "invalid --warmup -1");
			assertUsageError(lab.run(command, "--warmup-max", "0"), "invalid --warmup-max 0");
			assertUsageError(lab.run(command, "--threads", "0"), "invalid --threads 0");
		}
		assertUsageError(lab.run("sweep", "--duration", "0"), "invalid --duration 0");
		assertUsageError(lab.run("sweep", "--rate", "100"), "sweep has no --rate", "--levels");
		assertUsageError(lab.run("soak", "--duration", "10"), "soak has no --duration", "--minutes");
	}

}
