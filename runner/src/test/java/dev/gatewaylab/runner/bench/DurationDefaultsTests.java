package dev.gatewaylab.runner.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gatewaylab.runner.LabFixture;
import dev.gatewaylab.runner.experiment.Experiment;
import java.io.PrintStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The seconds per measured window a bench takes without --duration are the ones its help
 * gives, with and without --quick.
 */
class DurationDefaultsTests {

	@TempDir
	Path tmp;

	private static String durationHelp() {
		CommandLine cli = new CommandLine(new BenchCommand(new PrintStream(PrintStream.nullOutputStream()),
				new PrintStream(PrintStream.nullOutputStream())));
		return String.join(" ", cli.getCommandSpec().findOption("--duration").description());
	}

	@Test
	void aRepetitionLastsWhatTheDurationHelpSays() throws Exception {
		String help = durationHelp();
		assertThat(help).contains("default 3, --quick 2", "with --experiment 5, --quick 3",
				"a switchback's 60, --quick 4");
		try (LabFixture lab = new LabFixture(this.tmp)) {
			assertThat(ParsedBench.parse("--targets", "direct").settings().durationSeconds()).isEqualTo(3);
			assertThat(ParsedBench.parse("--targets", "direct", "--quick").settings().durationSeconds()).isEqualTo(2);
			assertThat(
					ParsedBench.parse("--targets", "direct", "--quick", "--duration", "5").settings().durationSeconds())
				.isEqualTo(5);
		}
		Experiment restarts = Experiment.named("tuning", this.tmp);
		assertThat(restarts.toggle()).isNull();
		assertThat(restarts.defaultDurationSeconds(false)).isEqualTo(5);
		assertThat(restarts.defaultDurationSeconds(true)).isEqualTo(3);
		Experiment switchback = Experiment.named("logging", this.tmp);
		assertThat(switchback.toggle()).isNotNull();
		assertThat(switchback.defaultDurationSeconds(false)).isEqualTo(60);
		assertThat(switchback.defaultDurationSeconds(true)).isEqualTo(4);
	}

}
