package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.LabFixture;
import dev.gatewaylab.runner.jmeter.JMeterHome;
import dev.gatewaylab.runner.jmeter.TestHome;
import dev.gatewaylab.runner.remote.RmiKeystore;
import dev.gatewaylab.runner.remote.TestKeystores;
import dev.gatewaylab.runner.run.LabException;
import dev.gatewaylab.runner.run.PlanRunner;
import dev.gatewaylab.runner.run.Runs;
import dev.gatewaylab.runner.run.Settings;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * --remote is wired to JMeter's DistributedRunner (as jmeter -R): parsing, validation and
 * wiring. Real engines run in ci/remote-e2e.sh (two ./lab engine processes on loopback
 * aliases).
 */
class RemoteOptionTests {

	@TempDir
	Path tmp;

	/**
	 * --remote's settings set JMeter's RMI properties: JMeter must be initialised, as the
	 * runner does first.
	 */
	@BeforeAll
	static void jmeter() {
		JMeterHome.init(TestHome.PATH);
	}

	@Test
	void remoteHostsAreSplitTrimmedAndReachTheSettings() throws Exception {
		try (LabFixture lab = new LabFixture(tmp)) {
			Settings s = ParsedBench.parse("--remote", "10.0.0.5, 10.0.0.6:1099", "--targets", "direct").settings();
			assertThat(s.remoteHosts()).containsExactly("10.0.0.5", "10.0.0.6:1099");
			assertThat(new PlanRunner(s.remoteHosts()).isRemote()).isTrue();
			assertThat(new PlanRunner(List.of()).isRemote()).isFalse();
			assertThat(s.describe()).containsEntry("remote_hosts", List.of("10.0.0.5", "10.0.0.6:1099"));
		}
	}

	@Test
	void remoteSettingsAreValidatedBeforeAnythingStarts() throws Exception {
		try (LabFixture lab = new LabFixture(tmp)) {
			assertThatThrownBy(
					() -> ParsedBench.parse("--remote", "127.0.0.2,127.0.0.3", "--targets", "direct").settings())
				.isInstanceOf(LabException.class)
				.hasMessageContaining("share port 1099")
				.hasMessageContaining("./lab engine --port 1199");
			assertThatThrownBy(
					() -> ParsedBench.parse("--remote", "127.0.0.2,127.0.0.2", "--targets", "direct").settings())
				.isInstanceOf(LabException.class)
				.hasMessageContaining("twice");
			assertThatThrownBy(
					() -> ParsedBench.parse("--remote", "h", "--on-engine-loss", "maybe", "--targets", "direct")
						.settings())
				.isInstanceOf(LabException.class)
				.hasMessageContaining("fail or continue");
			assertThatThrownBy(() -> ParsedBench.parse("--rmi-hostname", "10.0.0.1", "--targets", "direct").settings())
				.isInstanceOf(LabException.class)
				.hasMessageContaining("need --remote");
			assertThatThrownBy(() -> ParsedBench
				.parse("--remote", "h", "--rmi-keystore", tmp.resolve("none.jks").toString(), "--targets", "direct")
				.settings()).isInstanceOf(LabException.class).hasMessageContaining("not a readable file");
			java.nio.file.Path ks = java.nio.file.Files.writeString(tmp.resolve("ks.jks"), "x");
			assertThatThrownBy(
					() -> ParsedBench.parse("--remote", "h", "--rmi-keystore", ks.toString(), "--targets", "direct")
						.settings())
				.isInstanceOf(LabException.class)
				.hasMessageContaining("cannot read RMI keystore " + ks.toAbsolutePath())
				.hasMessageContaining("LAB_RMI_KEYSTORE_PASSWORD");
			// RMI over TLS through the lab's own sockets shares a fixed callback port
			Settings fixed = ParsedBench
				.parse("--remote", "h", "--rmi-keystore", TestKeystores.ours().toString(), "--rmi-callback-port",
						"41000", "--targets", "direct")
				.settings();
			assertThat(fixed.remote().rmi().callbackPort()).isEqualTo(41000);
			assertThatThrownBy(() -> ParsedBench
				.parse("--remote", "h", "--insecure-rmi", "--rmi-keystore", TestKeystores.ours().toString(),
						"--targets", "direct")
				.settings()).isInstanceOf(LabException.class).hasMessageContaining("exclude each other");
			assertThatThrownBy(() -> ParsedBench.parse("--insecure-rmi", "--targets", "direct").settings())
				.isInstanceOf(LabException.class)
				.hasMessageContaining("need --remote");
			Settings s = ParsedBench
				.parse("--remote", "127.0.0.2,127.0.0.3:1199", "--on-engine-loss", "continue", "--targets", "direct")
				.settings();
			assertThat(s.remote().continueOnLoss()).isTrue();
			assertThat(s.describe()).containsKey("remote");
		}
	}

	@Test
	void rmiRunsOverTlsWithTheCheckoutsKeystoreUnlessInsecureIsAskedFor() throws Exception {
		try (LabFixture lab = new LabFixture(tmp)) {
			Path checkouts = tmp.resolve(".lab").resolve(RmiKeystore.FILE_NAME);
			Settings tls = ParsedBench.parse("--remote", "127.0.0.2", "--targets", "direct").settings();
			assertThat(tls.remote().rmi().keystore()).as("missing yet: checked when the run reaches the engines")
				.isEqualTo(checkouts);
			assertThat(tls.remote().describe()).containsEntry("rmi_ssl", true);
			java.nio.file.Files.createDirectories(checkouts.getParent());
			java.nio.file.Files.writeString(checkouts, "damaged");
			assertThatThrownBy(() -> ParsedBench.parse("--remote", "127.0.0.2", "--targets", "direct").settings())
				.isInstanceOf(LabException.class)
				.hasMessageContaining("cannot read RMI keystore " + checkouts);
			Settings plain = ParsedBench.parse("--remote", "127.0.0.2", "--insecure-rmi", "--targets", "direct")
				.settings();
			assertThat(plain.remote().rmi().keystore()).isNull();
			assertThat(plain.remote().describe()).containsEntry("rmi_ssl", false);
		}
	}

	@Test
	void liveMetricsListenOnLoopbackUnlessAnAddressOfThisMachineIsGiven() throws Exception {
		try (LabFixture lab = new LabFixture(tmp)) {
			assertThat(ParsedBench.parse("--targets", "direct").settings().metricsHost()).isEqualTo("127.0.0.1");
			assertThat(ParsedBench.parse("--metrics-host", "0.0.0.0", "--targets", "direct").settings().metricsHost())
				.isEqualTo("0.0.0.0");
			assertThatThrownBy(() -> ParsedBench.parse("--metrics-host", "192.0.2.1", "--targets", "direct").settings())
				.isInstanceOf(LabException.class)
				.hasMessageContaining("--metrics-host 192.0.2.1 is not an address of this machine");
		}
	}

	@Test
	void malformedRemoteHostIsRejected() throws Exception {
		try (LabFixture lab = new LabFixture(tmp)) {
			assertThatThrownBy(() -> ParsedBench.parse("--remote", "bad host;rm", "--targets", "direct").settings())
				.isInstanceOf(LabException.class)
				.hasMessageContaining("invalid --remote host");
		}
	}

	@Test
	void propertiesForATargetCarryHostPortAndLoadShape() throws Exception {
		try (LabFixture lab = new LabFixture(tmp)) {
			Settings s = ParsedBench
				.parse("--targets", "gateway,direct", "--threads", "16", "-J", "idMax=50", "--gateway-url",
						"http://127.0.0.1:18080")
				.settings();
			var p = s.propertiesFor(s.targets().get(0), 12, 16, 0);
			assertThat(p).containsEntry("host", "127.0.0.1")
				.containsEntry("port", "18080")
				.containsEntry("threads", "16")
				.containsEntry("duration", "12")
				.containsEntry("rate", "0")
				.containsEntry("idMax", "50")
				.containsEntry("protocol", "http");
			assertThat(s.targets().get(1).port()).isEqualTo(8081);
			assertThat(s.targets().get(1).plan()).isEqualTo("direct");
		}
	}

}
