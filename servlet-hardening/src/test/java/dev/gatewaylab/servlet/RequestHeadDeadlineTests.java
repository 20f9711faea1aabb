package dev.gatewaylab.servlet;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import dev.gatewaylab.testsupport.MalformedRequests;
import dev.gatewaylab.testsupport.RawHttp;
import dev.gatewaylab.testsupport.SlowHead;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request line and header fields must arrive within the deadline
 * ({@link RequestHeadDeadlineProtocol}; 3 s in {@link HardenedServerTest}), counted from
 * their first byte, on the application port and on the management port alike: a head that
 * trickles in or stops is answered 408 problem+json and closed soon after the deadline
 * (Tomcat checks its read timeouts about once a second), long before Tomcat's timeout
 * between two reads (60 s here) would have ended it — and a head sending a byte every 2 s
 * never ended. A head that comes in time is served, however slowly it came, and the
 * deadline starts again with the next request on the connection.
 */
@HardenedServerTest
class RequestHeadDeadlineTests {

	static final long DEADLINE_MILLIS = 3_000;

	/** Tomcat checks its read timeouts once a second; a loaded CI machine. */
	static final long SLACK_MILLIS = 3_000;

	static final String TIMED_OUT = "{\"type\":\"about:blank\",\"title\":\"Request Timeout\",\"status\":408,"
			+ "\"detail\":\"The request line and header fields did not arrive within 3000 ms.\"}";

	@LocalServerPort
	int port;

	@LocalManagementPort
	int managementPort;

	@Test
	void aHeadSentOneByteEveryTwoSecondsIs408AndClosedSoonAfterTheDeadlineOnBothPorts() {
		SlowHead.trickleOnBothPorts(this.port, "/api/things/1", this.managementPort, 2_000)
			.forEach(RequestHeadDeadlineTests::assertTimedOut);
	}

	@Test
	void aHeadThatStopsIs408AtTheDeadlineNotAtTomcatsTimeoutBetweenReads() throws IOException {
		assertTimedOut(
				SlowHead.send(this.port, "GET /api/things/1 HTTP/1.1\r\nHost: localhost\r\nAccept: ", "", 0, 15_000));
	}

	@Test
	void blankLinesBeforeTheRequestLineCountTowardsTheDeadline() throws IOException {
		// Tomcat skips them, and let go of the connection between two of them
		assertTimedOut(SlowHead.send(this.port, "", "\r\n".repeat(8), 500, 15_000));
	}

	@Test
	void aSlowHeadWithinTheDeadlineIsServedAndTheNextRequestHasADeadlineOfItsOwn() throws IOException {
		try (RawHttp raw = new RawHttp(this.port, 15_000)) {
			long start = System.nanoTime();
			for (String piece : new String[] { "GET /api/things/1 HTTP/1.1\r\n", "Host: local", "host\r\n",
					"Accept: application/json\r\n" }) {
				raw.send(piece);
				pace(500);
			}
			raw.send("\r\n");
			long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
			assertThat(raw.readResponse().status()).as("a head that took %d ms", millis).isEqualTo(200);
			pace(DEADLINE_MILLIS + 500); // idle on the kept-alive connection: no head
											// under way
			raw.send(MalformedRequests.get("/api/things/1"));
			assertThat(raw.readResponse().status()).as("the next request on the connection").isEqualTo(200);
		}
	}

	static void assertTimedOut(SlowHead answer) {
		assertThat(answer.response().status()).isEqualTo(408);
		assertThat(answer.response().isProblemJson()).isTrue();
		assertThat(answer.response().header("Connection")).isEqualTo("close");
		assertThat(answer.response().body()).isEqualTo(TIMED_OUT);
		assertThat(answer.closed()).as("then the close").isTrue();
		assertThat(answer.millis()).as("answered and closed after")
			.isBetween(DEADLINE_MILLIS - 100, DEADLINE_MILLIS + SLACK_MILLIS);
	}

	/** The client's own pace, not a wait for the server. */
	private static void pace(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
