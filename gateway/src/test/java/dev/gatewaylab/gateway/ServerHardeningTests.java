package dev.gatewaylab.gateway;

import java.io.IOException;
import java.time.Duration;

import dev.gatewaylab.testsupport.RawHttp;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/** Requests no well-behaved client sends, on a raw socket. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "LOG_PATH=target/logs", "GATEWAY_IDLE_TIMEOUT=1s",
				"GATEWAY_READ_TIMEOUT=500ms", "GATEWAY_MAX_BODY_SIZE=1KB", "STUDY_SERVICE_RESPONSE_TIMEOUT_MS=3000" })
class ServerHardeningTests extends RunningGateway {

	@Test
	void http11WithoutHostIs400Problem() throws IOException {
		assertThat(RawHttp.exchange(this.port, "GET /api/studies/1 HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 400 ")
			.contains("application/problem+json")
			.contains("\"status\":400");
	}

	@Test
	void twoHostsAre400() throws IOException {
		assertThat(RawHttp.exchange(this.port, "GET /api/studies/1 HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"))
			.startsWith("HTTP/1.1 400 ");
	}

	@Test
	void invalidHostIs400() throws IOException {
		assertThat(RawHttp.exchange(this.port, "GET /api/studies/1 HTTP/1.1\r\nHost: a b<>\r\n\r\n"))
			.startsWith("HTTP/1.1 400 ");
	}

	@Test
	void unknownHttpVersionIs505() throws IOException {
		assertThat(RawHttp.exchange(this.port, "GET /api/studies/1 HTTP/9.9\r\nHost: a\r\n\r\n"))
			.startsWith("HTTP/1.1 505 ")
			.contains("\"status\":505");
	}

	@Test
	void validRequestsStillPass() throws IOException {
		assertThat(RawHttp.exchange(this.port,
				"GET /api/studies/1 HTTP/1.1\r\nHost: localhost:8080\r\nConnection: close\r\n\r\n"))
			.startsWith("HTTP/1.1 200 ")
			.contains(Upstream.STUDY_JSON);
		assertThat(RawHttp.exchange(this.port, "GET /api/studies/1 HTTP/1.0\r\n\r\n"))
			.matches("(?s)HTTP/1.[01] 200 .*");
		assertThat(RawHttp.exchange(this.port,
				"GET /api/studies/1?next=%2Fa%00 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"))
			.as("escapes in the query are the application's business")
			.startsWith("HTTP/1.1 200 ");
	}

	@Test
	void idleConnectionIsClosedAfterTheIdleTimeout() throws IOException {
		long start = System.nanoTime();
		try (RawHttp raw = new RawHttp(this.port, 10_000)) {
			assertThat(raw.readAll()).isEmpty(); // closed by the server, not our read
													// timeout
		}
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
	}

	@Test
	void halfSentHeadersAreClosedAfterTheIdleTimeout() throws IOException {
		long start = System.nanoTime();
		try (RawHttp raw = new RawHttp(this.port, 10_000)) {
			raw.send("GET /api/studies/1 HTTP/1.1\r\nHost: a\r\nX-Slow: ");
			assertThat(raw.readAll()).doesNotContain("<read timeout>");
		}
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
	}

	@Test
	void aClientStallingItsOwnBodyGets408Not504() throws IOException {
		long start = System.nanoTime();
		try (RawHttp raw = new RawHttp(this.port, 10_000)) {
			raw.send(
					"POST /api/studies HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"ti");
			assertThat(raw.readAll()).startsWith("HTTP/1.1 408 ");
		}
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(2500));
	}

	@Test
	void encodedSlashBackslashOrNulInThePathIs400ProblemAndNeverForwarded() throws IOException {
		for (String path : new String[] { "/api/studies/a%2fb", "/api/studies/a%2Fb", "/api/studies/%5c",
				"/api/studies/%00" }) {
			assertThat(RawHttp.exchange(this.port, "GET " + path + " HTTP/1.1\r\nHost: a\r\n\r\n")).as(path)
				.startsWith("HTTP/1.1 400 ")
				.contains("application/problem+json");
		}
	}

	@Test
	void dotAndEmptySegmentsInThePathAre400ProblemAndNeverForwarded() throws IOException {
		// /api/studies/../../actuator matched the study-service route and reached
		// study-service, which normalised it
		for (String path : new String[] { "/api/studies/../../actuator", "/api/studies/..", "/api/studies/./1",
				"/api/studies//1", "/api/studies/%2e%2e/%2E%2e/actuator", "/api/studies/.%2e/x", "/api/studies/..;/x",
				"/api/studies;/../x", "/css/../login", "http://a/api/studies/../x", "/api/studies/1/.?a=1" }) {
			int unmatched = upstream.unmatched.size();
			assertThat(
					RawHttp.exchange(this.port, "GET " + path + " HTTP/1.1\r\nHost: a\r\nX-Request-Id: dots\r\n\r\n"))
				.as(path)
				.startsWith("HTTP/1.1 400 ")
				.contains("application/problem+json");
			assertThat(upstream.unmatched).as(path + " never reached the upstream").hasSize(unmatched);
		}
		assertThat(upstream.requestIds).as("never reached the upstream").doesNotContain("dots");
		for (String path : new String[] { "/api/studies/1", "/api/studies/1/", "/api/studies/1?next=../x//y",
				"/api/studies/1;v=1", "http://a/api/studies/1" }) {
			assertThat(RawHttp.exchange(this.port, "GET " + path + " HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"))
				.as(path)
				.doesNotStartWith("HTTP/1.1 400 ");
		}
	}

	@Test
	void moreThanAHundredHeadersIs431ProblemNotForwarded() throws IOException {
		StringBuilder request = new StringBuilder("GET /api/studies/1 HTTP/1.1\r\nHost: a\r\n");
		for (int i = 0; i < 101; i++) {
			request.append("X-H").append(i).append(": v\r\n");
		}
		assertThat(RawHttp.exchange(this.port, request.append("\r\n").toString())).startsWith("HTTP/1.1 431 ")
			.contains("application/problem+json");
	}

	@Test
	void aBodyOverTheLimitIs413ProblemByContentLengthAndWhenChunked() throws IOException {
		String big = "{\"title\":\"" + "x".repeat(2000) + "\"}";
		assertThat(RawHttp.exchange(this.port,
				"POST /api/studies HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n" + "Content-Length: "
						+ big.length() + "\r\n\r\n" + big))
			.startsWith("HTTP/1.1 413 ")
			.contains("application/problem+json");
		String chunk = Integer.toHexString(big.length()) + "\r\n" + big + "\r\n0\r\n\r\n";
		assertThat(RawHttp.exchange(this.port,
				"POST /api/studies HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
						+ "Transfer-Encoding: chunked\r\n\r\n" + chunk))
			.startsWith("HTTP/1.1 413 ")
			.contains("application/problem+json");
		String small = "{\"title\":\"t\"}";
		assertThat(RawHttp.exchange(this.port,
				"POST /api/studies HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
						+ "Connection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
						+ Integer.toHexString(small.length()) + "\r\n" + small + "\r\n0\r\n\r\n"))
			.startsWith("HTTP/1.1 201 ")
			.endsWith(small);
	}

	@Test
	void traceIs405ProblemAnsweredByTheGateway() throws IOException {
		assertThat(RawHttp.exchange(this.port, "TRACE /api/studies/1 HTTP/1.1\r\nHost: a\r\n\r\n"))
			.startsWith("HTTP/1.1 405 ")
			.contains("application/problem+json");
	}

	@Test
	void connectIs405ProblemNotATunnel() throws IOException {
		// found by GatewayFuzzTests: the authority-form target reached the routing as a
		// URI without a path
		assertThat(RawHttp.exchange(this.port, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"))
			.startsWith("HTTP/1.1 405 ")
			.contains("application/problem+json")
			.contains("\"status\":405");
		assertThat(RawHttp.exchange(this.port, "CONNECT /api/studies/1 HTTP/1.1\r\nHost: a\r\n\r\n"))
			.startsWith("HTTP/1.1 405 ");
	}

	@Test
	void aRequestTargetThatIsNoUriIs400Problem() throws IOException {
		// Spring's request adapter answered these with an empty 400 (or routed them with
		// a null host)
		for (String target : new String[] { "api/studies/1", "*", "/api/studies/{1}", "/api/studies/1|2", "/a%zz",
				"/api/\"x\"", "/a<b>", "http://", "mailto:a@b" }) {
			assertThat(RawHttp.exchange(this.port, "GET " + target + " HTTP/1.1\r\nHost: a\r\n\r\n")).as(target)
				.startsWith("HTTP/1.1 400 ")
				.contains("application/problem+json");
		}
	}

	@Test
	void absoluteFormAndEscapedTargetsStillPass() throws IOException {
		assertThat(RawHttp.exchange(this.port,
				"GET http://localhost/api/studies/1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"))
			.startsWith("HTTP/1.1 200 ");
		assertThat(RawHttp.exchange(this.port,
				"GET /api/studies/1?q=%C3%A9&a=[1] HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"))
			.startsWith("HTTP/1.1 200 ");
		assertThat(RawHttp.exchange(this.port, "OPTIONS * HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"))
			.doesNotStartWith("HTTP/1.1 5")
			.doesNotStartWith("HTTP/1.1 400 ");
	}

	@Test
	void aWebSocketUpgradeOnAPlainRouteIsAnsweredAsPlainHttp() throws IOException {
		// A 101 then a close 1002 needs the WebSocket routing filter, off unless
		// GATEWAY_UNUSED_FILTERS=true (WebSocketUpgradeTests): without it Upgrade is a
		// hop-by-hop header the gateway drops.
		assertThat(RawHttp
			.exchange(this.port, "GET /api/studies/1 HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, close\r\n"
					+ "Upgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"))
			.startsWith("HTTP/1.1 200 ")
			.contains(Upstream.STUDY_JSON);
	}

	@Test
	void encodedSlashOnTheManagementPortIsNot500() throws IOException {
		assertThat(RawHttp.exchange(this.managementPort,
				"GET /actuator/health/a%2fb HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"))
			.matches("(?s)HTTP/1.1 4\\d\\d .*");
	}

}
