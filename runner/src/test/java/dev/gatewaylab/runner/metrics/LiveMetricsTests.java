package dev.gatewaylab.runner.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.Test;

class LiveMetricsTests {

	@Test
	void aTakenPortGivesAWarningAndTheRunGoesOn() throws Exception {
		try (ServerSocket taken = new ServerSocket()) {
			taken.bind(new InetSocketAddress(0));
			ByteArrayOutputStream err = new ByteArrayOutputStream();
			try (LiveMetrics metrics = new LiveMetrics()) {
				int port = metrics.start(taken.getLocalPort(), new PrintStream(err, true, StandardCharsets.UTF_8));
				assertThat(port).isEqualTo(-1);
				assertThat(err.toString(StandardCharsets.UTF_8))
					.startsWith("warning: live metrics port " + taken.getLocalPort() + " is not available")
					.contains("--metrics-port 0");
				// still counts, so a later scrape or the report is unaffected
				SampleResult r = SampleResult.createTestSample(5);
				r.setSuccessful(false);
				metrics.series("gateway", "gateway").record(r);
				assertThat(metrics.scrape()).contains(
						"runner_requests_total{application=\"runner\",outcome=\"error\",plan=\"gateway\",target=\"gateway\"} 1.0");
			}
		}
	}

	@Test
	void listensOnItsHostAloneLoopbackByDefault() throws Exception {
		int port;
		try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = free.getLocalPort();
		}
		boolean secondLoopback;
		try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.2"))) {
			secondLoopback = true;
		}
		catch (IOException e) {
			secondLoopback = false;
		}
		try (LiveMetrics metrics = new LiveMetrics()) {
			assertThat(metrics.start(port, System.err)).isEqualTo(port);
			assertThat(connects("127.0.0.1", port)).isTrue();
			if (secondLoopback) {
				assertThat(connects("127.0.0.2", port)).as("another local address: refused").isFalse();
			}
		}
		assertThat(LiveMetrics.url("127.0.0.1", 9270)).isEqualTo("http://127.0.0.1:9270/metrics");
		assertThat(LiveMetrics.url("0.0.0.0", 9270)).isEqualTo("http://localhost:9270/metrics");
	}

	private static boolean connects(String host, int port) throws IOException {
		try (Socket s = new Socket()) {
			s.connect(new InetSocketAddress(host, port), 2000);
			return true;
		}
		catch (ConnectException e) {
			return false;
		}
	}

	@Test
	void portZeroDisablesTheEndpoint() {
		try (LiveMetrics metrics = new LiveMetrics()) {
			assertThat(metrics.start(0, System.err)).isEqualTo(-1);
		}
	}

}
