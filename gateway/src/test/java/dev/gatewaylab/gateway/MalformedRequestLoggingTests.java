package dev.gatewaylab.gateway;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;

import dev.gatewaylab.testsupport.RawHttp;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A malformed request is the client's error: 400 on the wire, in the access log, and no
 * ERROR/WARN flood.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "LOG_PATH=target/logs" })
class MalformedRequestLoggingTests extends LoggedRunningGateway {

	@Test
	void malformedChunkedBodyIs400InTheAccessLogAndLogsNoErrorOrWarning() throws IOException {
		String response = RawHttp.exchange(this.port,
				"POST /api/studies HTTP/1.1\r\nHost: a\r\nX-Request-Id: bad-chunk\r\n"
						+ "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n");
		assertThat(response).startsWith("HTTP/1.1 400 ");
		String line = this.access.awaitMessageContaining("id=bad-chunk")
			.stream()
			.filter((m) -> m.contains("id=bad-chunk"))
			.findFirst()
			.orElseThrow();
		assertThat(line).contains("status=400");
		assertNoErrorOrWarning();
	}

	@Test
	void clientsThatHangUpMidBodyAre400InTheAccessLogAndLogNoWarnings() throws IOException {
		// 200 such clients gave 175 WARN "POST /api/studies -> 500: AbortedException" and
		// status=500 access lines
		int started = upstream.postsStarted.get();
		List<RawHttp> clients = new ArrayList<>();
		for (int i = 0; i < 40; i++) {
			RawHttp raw = new RawHttp(this.port, 1000);
			raw.send("POST /api/studies HTTP/1.1\r\nHost: a\r\nX-Request-Id: mid-body-" + i
					+ "\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{\"ti");
			clients.add(raw);
		}
		// Until every call is under way at the upstream, its body still arriving: one
		// more
		// byte of it a second (at most 10 of the 46 missing), or on a busy machine the
		// first clients would stall for the read timeout (3 s) and rightly get the 408 of
		// a stalled body instead of hanging up.
		long start = System.nanoTime();
		long deadline = start + Duration.ofSeconds(10).toNanos();
		long nextByte = start + Duration.ofSeconds(1).toNanos();
		while (upstream.postsStarted.get() < started + 40 && System.nanoTime() < deadline) {
			LockSupport.parkNanos(1_000_000);
			if (System.nanoTime() - nextByte >= 0) {
				for (RawHttp raw : clients) {
					raw.send(" ");
				}
				nextByte += Duration.ofSeconds(1).toNanos();
			}
		}
		assertThat(upstream.postsStarted.get() - started).as("calls under way at the upstream")
			.isGreaterThanOrEqualTo(40);
		for (RawHttp raw : clients) {
			raw.close();
		}
		RawHttp.exchange(this.port,
				"GET /api/studies/1 HTTP/1.1\r\nHost: a\r\nX-Request-Id: after-mid-body\r\nConnection: close\r\n\r\n");
		this.access.awaitMessageContaining("id=after-mid-body");
		for (int i = 0; i < 40; i++) {
			String id = "id=mid-body-" + i + " ";
			assertThat(this.access.awaitMessageContaining(id)).filteredOn((m) -> m.contains(id))
				.singleElement(InstanceOfAssertFactories.STRING)
				.contains("status=400");
		}
		assertNoErrorOrWarning();
	}

	@Test
	void clientsThatHangUpMidRequestLogNoWarnings() throws IOException {
		for (int i = 0; i < 20; i++) {
			try (RawHttp raw = new RawHttp(this.port, 1000)) {
				raw.send("GET /api/studies/1 HTTP/1.1\r\nHost: a\r\nX-Half: ");
			}
		}
		// one well-formed request afterwards: its access line proves the earlier events
		// had time to arrive
		RawHttp.exchange(this.port,
				"GET /api/studies/1 HTTP/1.1\r\nHost: a\r\nX-Request-Id: after-hangups\r\nConnection: close\r\n\r\n");
		this.access.awaitMessageContaining("id=after-hangups");
		assertNoErrorOrWarning();
	}

}
