package dev.gatewaylab.gateway;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;

import dev.gatewaylab.testsupport.RawHttp;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The read timeout blames the client only for time the gateway was reading: a body that
 * waits for the upstream call (here, for the pool's one connection) is not a stalled
 * body.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = { "management.server.port=0",
		"LOG_PATH=target/logs", "GATEWAY_READ_TIMEOUT=1s", "GATEWAY_POOL_MAX_CONNECTIONS=1" })
class BodyTimingTests extends RunningGateway {

	@Test
	void aBodyWaitingForTheUpstreamConnectionIsNotAStalledBody() throws IOException {
		int slow = upstream.slowGetsStarted.get();
		try (RawHttp busy = new RawHttp(this.port, 10_000); RawHttp post = new RawHttp(this.port, 10_000)) {
			// the pool's one connection taken for 3 s
			busy.send("GET /api/studies/1/slow HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
			long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
			while (upstream.slowGetsStarted.get() == slow && System.nanoTime() < deadline) {
				LockSupport.parkNanos(1_000_000);
			}
			assertThat(upstream.slowGetsStarted.get()).as("slow call under way").isGreaterThan(slow);
			// a body sent a byte every 100 ms (a tenth of the read timeout: slack for a
			// loaded machine) while the request waits about 3 s for the connection, and
			// the gateway does not read it meanwhile
			String body = "{\"title\":\"waited\"}";
			post.send("POST /api/studies HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: "
					+ body.length() + "\r\nConnection: close\r\n\r\n");
			long next = System.nanoTime();
			try {
				for (char c : body.toCharArray()) {
					next += Duration.ofMillis(100).toNanos();
					LockSupport.parkNanos(next - System.nanoTime());
					post.send(String.valueOf(c));
				}
			}
			catch (IOException ex) {
				// closed by the gateway: its answer says why
			}
			assertThat(post.readAll()).startsWith("HTTP/1.1 201 ").endsWith(body);
			assertThat(busy.readAll()).startsWith("HTTP/1.1 200 ");
		}
	}

}
