package dev.gatewaylab.runner.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gatewaylab.runner.RunnerCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's options are checked before anything listens: each mistake is one line and
 * exit 2. (A started engine serves until stopped: ci/remote-e2e.sh runs real ones.)
 */
class EngineCommandTests {

	@TempDir
	Path tmp;

	private final ByteArrayOutputStream err = new ByteArrayOutputStream();

	private int engine(String... args) {
		String[] all = new String[args.length + 1];
		all[0] = "engine";
		System.arraycopy(args, 0, all, 1, args.length);
		return RunnerCommand.execute(new PrintStream(PrintStream.nullOutputStream()),
				new PrintStream(err, true, StandardCharsets.UTF_8), all);
	}

	private String error() {
		return err.toString(StandardCharsets.UTF_8);
	}

	@Test
	void insecureRmiAndAKeystoreExcludeEachOther() {
		assertThat(engine("--insecure-rmi", "--rmi-keystore", tmp.resolve("k.p12").toString())).isEqualTo(2);
		assertThat(error()).startsWith("error: --insecure-rmi and --rmi-keystore exclude each other");
	}

	@Test
	void theHostMustBeOneAddressOfThisMachine() {
		assertThat(engine("--host", "192.0.2.1", "--port", "1399")).isEqualTo(2);
		assertThat(error()).contains("--host 192.0.2.1 (192.0.2.1) is not an address of this machine");
		err.reset();
		assertThat(engine("--host", "0.0.0.0", "--port", "1399")).isEqualTo(2);
		assertThat(error()).contains("--host 0.0.0.0 is every address of this machine");
	}

	@Test
	void aNamedKeystoreThatIsMissingIsNamedNotCreated() {
		Path missing = tmp.resolve("missing.p12");
		assertThat(engine("--host", "127.0.0.1", "--port", "1399", "--rmi-keystore", missing.toString())).isEqualTo(2);
		assertThat(error()).startsWith("error: RMI keystore " + missing + " is not a readable file (no such file) — ")
			.doesNotContain("\tat ");
		assertThat(missing).doesNotExist();
	}

	@Test
	void theCopyHintIsOneCommandForAnotherMachineAndNothingOnLoopback() {
		Path ks = Path.of("/opt/gateway-lab/.lab/rmi-keystore.p12");
		assertThat(EngineCommand.copyHint(ks, "127.0.0.2", true)).startsWith("a runner in this checkout uses it");
		assertThat(EngineCommand.copyHint(ks, "10.0.0.5", false))
			.endsWith("mkdir -p .lab && scp -p " + System.getProperty("user.name")
					+ "@10.0.0.5:/opt/gateway-lab/.lab/rmi-keystore.p12 .lab/rmi-keystore.p12");
	}

}
