package dev.gatewaylab.runner.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The keystore ./lab engine creates, and what a missing or wrong one says. */
class RmiKeystoreTests {

	@TempDir
	Path tmp;

	@Test
	void createsAKeystoreOnceOwnerOnlyAndItLoads() throws Exception {
		Path file = tmp.resolve(".lab").resolve(RmiKeystore.FILE_NAME);
		assertThat(RmiKeystore.create(file, Rmi.password())).as("created").isTrue();
		assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
		byte[] first = Files.readAllBytes(file);
		assertThat(RmiKeystore.create(file, Rmi.password())).as("kept: it exists").isFalse();
		assertThat(Files.readAllBytes(file)).as("the same keystore").isEqualTo(first);
		try (var left = Files.list(file.getParent())) {
			assertThat(left.map(p -> p.getFileName().toString())).as("no temporary folder left")
				.containsExactly(RmiKeystore.FILE_NAME);
		}
		RmiKeystore ks = RmiKeystore.load(file, Rmi.password(), "fix");
		assertThat(ks.context().getProtocol()).isEqualTo("TLS");
		assertThat(ks.warnings()).isEmpty();
	}

	@Test
	void aMissingKeystoreIsNamedWithTheFix() {
		Path file = tmp.resolve("none.p12");
		assertThatThrownBy(() -> RmiKeystore.load(file, Rmi.password(), "copy it here"))
			.isInstanceOf(RmiSetupException.class)
			.hasMessage("RMI keystore " + file + " is not a readable file (no such file)")
			.satisfies(e -> assertThat(((RmiSetupException) e).fix()).isEqualTo("copy it here"));
	}

	@Test
	void aWrongPasswordOrAFileThatIsNoKeystoreNamesTheFileAndThePasswordVariable() throws Exception {
		Path garbage = Files.writeString(tmp.resolve("garbage.p12"), "not a keystore");
		assertThatThrownBy(() -> RmiKeystore.load(garbage, Rmi.password(), "fix")).isInstanceOf(RmiSetupException.class)
			.hasMessageStartingWith("cannot read RMI keystore " + garbage + ": ")
			.satisfies(e -> assertThat(((RmiSetupException) e).fix()).contains(Rmi.PASSWORD_ENV));
		Path ours = TestKeystores.ours();
		assertThatThrownBy(() -> RmiKeystore.load(ours, "not-" + Rmi.password(), "fix"))
			.isInstanceOf(RmiSetupException.class)
			.hasMessageStartingWith("cannot read RMI keystore " + ours + ": ")
			.hasMessageContaining("password");
	}

	@Test
	void aKeystoreOthersMayReadIsUsableWithAWarning() throws Exception {
		Path copy = Files.copy(TestKeystores.ours(), tmp.resolve("copy.p12"));
		Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
		RmiKeystore ks = RmiKeystore.load(copy, Rmi.password(), "fix");
		assertThat(ks.warnings()).singleElement()
			.asString()
			.contains("open to other users")
			.contains("chmod 600 " + copy.toAbsolutePath());
	}

	@Test
	void theCopyCommandFetchesItIntoTheRunnersCheckout() {
		String user = System.getProperty("user.name");
		assertThat(RmiKeystore.copyCommand(Path.of("/opt/gateway-lab/.lab/rmi-keystore.p12"), "10.0.0.5"))
			.isEqualTo("mkdir -p .lab && scp -p " + user + "@10.0.0.5:/opt/gateway-lab/.lab/rmi-keystore.p12 .lab/"
					+ RmiKeystore.FILE_NAME);
		assertThat(RmiKeystore.copyCommand(Path.of("/opt/my lab/k.p12"), "fd00::5"))
			.contains("@[fd00::5]:'/opt/my lab/k.p12' .lab/");
	}

}
