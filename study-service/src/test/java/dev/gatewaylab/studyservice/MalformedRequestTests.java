package dev.gatewaylab.studyservice;

import java.io.IOException;

import dev.gatewaylab.testsupport.MalformedRequests;
import dev.gatewaylab.testsupport.RawHttp;
import dev.gatewaylab.testsupport.RawResponse;
import dev.gatewaylab.testsupport.SlowHead;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests no well-behaved client sends, straight to study-service (past the gateway),
 * where this app's own configuration decides the outcome: its log levels and its form
 * handling. The answers themselves (problem+json from Tomcat's refusals, path parameters,
 * a malformed Accept) are servlet-hardening's, tested there. Its own application context
 * (the marker property), so that Tomcat is fresh: Tomcat logs the first unparseable
 * request line of each request processor at INFO with a stack trace, later ones at DEBUG
 * — a reused context would hide the first one.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "management.server.port=0",
		"TOMCAT_REQUEST_HEAD_TIMEOUT=2s", "test.context=malformed-requests" })
class MalformedRequestTests {

	@LocalServerPort
	int port;

	@LocalManagementPort
	int managementPort;

	/**
	 * {@code TOMCAT_REQUEST_HEAD_TIMEOUT=2s}: a head sent one byte a second is answered
	 * 408 problem+json and closed after 2 s (Tomcat checks its read timeouts once a
	 * second), on both ports (servlet-hardening's {@code RequestHeadDeadlineTests} for
	 * the rest).
	 */
	@Test
	void aHeadSentOneByteASecondIs408AndClosedWithinTheDeadlineOnBothPorts() {
		for (SlowHead answer : SlowHead.trickleOnBothPorts(this.port, "/api/studies/1", this.managementPort, 1_000)) {
			assertThat(answer.response().status()).isEqualTo(408);
			assertThat(answer.response().isProblemJson()).isTrue();
			assertThat(answer.response().body()).contains("did not arrive within 2000 ms");
			assertThat(answer.closed()).isTrue();
			assertThat(answer.millis()).isBetween(1_900L, 5_000L);
		}
	}

	@Test
	void aRequestTargetTomcatRefusesLogsNoStackTrace(CapturedOutput output) throws IOException {
		int logged = output.getAll().length();
		assertThat(exchange(MalformedRequests.backslashTraversal("/api/studies")).status()).isEqualTo(400);
		assertThat(exchange(MalformedRequests.get("/api/studies/1")).status()).as("served afterwards").isEqualTo(200);
		assertThat(output.getAll().substring(logged)).doesNotContain("Error parsing HTTP request header")
			.doesNotContain("\tat ");
	}

	@Test
	void aFormBodyOnPutIs415ProblemNot500() throws IOException {
		// Boot's FormContentFilter parsed form bodies of PUT/PATCH/DELETE
		// before any controller and threw on '%zz'
		RawResponse response = exchange(MalformedRequests.formWithBrokenEscape("PUT", "/api/studies/1"));
		assertThat(response.status()).isEqualTo(415);
		assertThat(response.isProblemJson()).isTrue();
	}

	@Test
	void aMalformedAcceptHeaderLogsNoWarning(CapturedOutput output) throws IOException {
		int logged = output.getAll().length();
		exchange(MalformedRequests.malformedAccept("/"));
		assertThat(output.getAll().substring(logged)).as("Boot's welcome page mapping warned per request")
			.doesNotContain("Received invalid Accept header");
	}

	private RawResponse exchange(String request) throws IOException {
		return RawResponse.parse(RawHttp.exchange(this.port, request));
	}

}
