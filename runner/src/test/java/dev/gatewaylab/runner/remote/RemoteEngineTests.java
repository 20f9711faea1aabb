package dev.gatewaylab.runner.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gatewaylab.runner.jmeter.JMeterHome;
import dev.gatewaylab.runner.jmeter.TestHome;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class RemoteEngineTests {

	@BeforeAll
	static void rmiWithoutSsl() {
		JMeterHome.init(TestHome.PATH);
		// as the runner does before any RMI
		Rmi.JMETER_PROPERTIES.forEach(JMeterUtils::setProperty);
	}

	@Test
	void parsesHostAndOptionalPortKeepingTheNameJMeterUses() {
		assertThat(RemoteEngine.parse("127.0.0.2")).isEqualTo(new RemoteEngine("127.0.0.2", "127.0.0.2", 1099));
		assertThat(RemoteEngine.parse(" 127.0.0.3:1199 "))
			.isEqualTo(new RemoteEngine("127.0.0.3:1199", "127.0.0.3", 1199));
		assertThat(RemoteEngine.parse("localhost:2000").loopback()).isTrue();
		assertThat(RemoteEngine.parse("10.0.0.5").loopback()).isFalse();
		for (String bad : List.of("", "h:", ":1099", "h:0", "h:70000", "h:x", "a:1:2")) {
			assertThatThrownBy(() -> RemoteEngine.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
		}
	}

	@Test
	void aClosedPortIsReportedAsNothingListening() throws Exception {
		int port;
		try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = s.getLocalPort();
		}
		String problem = new RemoteEngine("127.0.0.1:" + port, "127.0.0.1", port).problem(Duration.ofSeconds(3));
		assertThat(problem).isEqualTo("nothing listens on 127.0.0.1:" + port + " (connection refused)");
	}

	@Test
	void aSilentListenerIsReportedWithinTheTimeout() throws Exception {
		List<Socket> held = new ArrayList<>();
		try (ServerSocket s = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
			Thread accept = new Thread(() -> {
				try {
					while (true) {
						// accept, never answer: a hung engine or a black-holing middlebox
						held.add(s.accept());
					}
				}
				catch (Exception e) {
					// closed
				}
			});
			accept.setDaemon(true);
			accept.start();
			long t0 = System.nanoTime();
			String problem = new RemoteEngine("127.0.0.1", "127.0.0.1", s.getLocalPort())
				.problem(Duration.ofSeconds(1));
			assertThat(problem).startsWith("no answer from 127.0.0.1:" + s.getLocalPort() + " within 1 s");
			assertThat((System.nanoTime() - t0) / 1e9).isLessThan(3);
		}
		finally {
			for (Socket c : held) {
				c.close();
			}
		}
	}

}
