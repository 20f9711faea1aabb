package dev.gatewaylab.runner.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.rmi.Remote;
import java.rmi.server.UnicastRemoteObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JMeter exports its callback objects per plan run on client.rmi.localport + 1 and + 2;
 * RMI closes a port's listener when its last object is unexported, so between runs
 * another socket could take it. The keepers hold the listeners.
 */
class CallbackPortsTests {

	@TempDir
	Path tmp;

	/** Something JMeter would export for one plan run. */
	interface Callback extends Remote {

	}

	private static final class CallbackImpl implements Callback {

	}

	/** A base whose two callback ports are free now. */
	private static int freeBase() throws IOException {
		for (int attempt = 0; attempt < 50; attempt++) {
			int base;
			try (ServerSocket s = new ServerSocket(0)) {
				base = s.getLocalPort() - 1;
			}
			if (base > 1024 && base + 2 < 65536 && free(base + 1) && free(base + 2)) {
				return base;
			}
		}
		throw new IllegalStateException("no two adjacent free ports");
	}

	private static boolean free(int port) {
		try (ServerSocket s = new ServerSocket(port)) {
			return true;
		}
		catch (IOException e) {
			return false;
		}
	}

	/**
	 * RMI closes a listener shortly after its last object is unexported, on its own
	 * thread: poll, 5 s at most.
	 */
	private static boolean freeSoon(int port) throws InterruptedException {
		long deadline = System.nanoTime() + 5_000_000_000L;
		while (!free(port)) {
			if (System.nanoTime() > deadline) {
				return false;
			}
			Thread.sleep(20);
		}
		return true;
	}

	private static boolean listening(int port) {
		try (Socket s = new Socket()) {
			s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
			return true;
		}
		catch (IOException e) {
			return false;
		}
	}

	@Test
	void portsAreBasePlusOneAndPlusTwoAsJMeterUsesThem() {
		assertThat(CallbackPorts.ports(21100)).containsExactly(21101, 21102);
	}

	@Test
	void theListenersOutliveEveryPlanRunsOwnExport() throws Exception {
		int base = freeBase();
		try (CallbackPorts held = CallbackPorts.hold(base)) {
			assertThat(listening(base + 1)).isTrue();
			assertThat(listening(base + 2)).isTrue();
			for (int run = 0; run < 3; run++) {
				// a plan run: JMeter exports on the port, then unexports
				CallbackImpl callback = new CallbackImpl();
				UnicastRemoteObject.exportObject(callback, base + 2, null, null);
				UnicastRemoteObject.unexportObject(callback, true);
				assertThat(listening(base + 2)).as("after plan run %d", run).isTrue();
				assertThat(free(base + 2)).as("nobody else can bind it").isFalse();
			}
		}
		assertThat(freeSoon(base + 1) && freeSoon(base + 2)).as("released on close").isTrue();
	}

	@Test
	void aTakenPortIsNamedAndNothingIsHeld() throws Exception {
		int base = freeBase();
		try (ServerSocket other = new ServerSocket(base + 2)) {
			assertThatThrownBy(() -> CallbackPorts.hold(base)).isInstanceOf(CallbackPorts.Taken.class)
				.hasMessageContaining("callback port " + (base + 2) + " is in use")
				.satisfies(e -> assertThat(((CallbackPorts.Taken) e).port()).isEqualTo(base + 2));
		}
		assertThat(freeSoon(base + 1)).as("the first port was released again").isTrue();
	}

	@Test
	void warnsOnlyForPortsInTheEphemeralRange() throws Exception {
		Path range = tmp.resolve("ip_local_port_range");
		Files.writeString(range, "32768\t60999\n");
		assertThat(CallbackPorts.ephemeralRange(range)).containsExactly(32768, 60999);
		assertThat(CallbackPorts.ephemeralRange(tmp.resolve("missing"))).isNull();
		int[] r = CallbackPorts.ephemeralRange(Path.of("/proc/sys/net/ipv4/ip_local_port_range"));
		if (r != null) {
			assertThat(CallbackPorts.ephemeralWarning(r[0])).contains("port " + (r[0] + 1)).contains("ephemeral");
			assertThat(CallbackPorts.ephemeralWarning(r[0] - 10)).isNull();
		}
	}

}
