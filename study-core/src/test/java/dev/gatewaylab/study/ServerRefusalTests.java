package dev.gatewaylab.study;

import java.io.IOException;

import dev.gatewaylab.testsupport.MalformedRequests;
import dev.gatewaylab.testsupport.RawHttp;
import dev.gatewaylab.testsupport.RawResponse;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Tomcat refuses before any application code ({@link ProblemErrorReportValve}) is
 * problem+json on the application port and on the management port alike — never Tomcat's
 * HTML report.
 */
@StudyServerTest
class ServerRefusalTests {

	@LocalServerPort
	int port;

	@LocalManagementPort
	int managementPort;

	@Test
	void aRequestTargetTomcatRefusesIs400ProblemOnBothPorts() throws IOException {
		for (int port : new int[] { this.port, this.managementPort }) {
			// a backslash is no URI character: Tomcat refuses the request line itself
			assertBadRequestProblem(exchange(port, MalformedRequests.backslashTraversal("/api/studies")));
			// Tomcat refuses an encoded slash (the management port answered with its
			// HTML report)
			assertBadRequestProblem(exchange(port, MalformedRequests.get("/actuator/health/a%2fb")));
		}
		assertThat(exchange(this.port, MalformedRequests.get("/api/studies/1")).status()).as("served afterwards")
			.isEqualTo(200);
	}

	private static void assertBadRequestProblem(RawResponse response) {
		assertThat(response.status()).isEqualTo(400);
		assertThat(response.isProblemJson()).isTrue();
		assertThat(response.body()).startsWith("{\"type\":\"about:blank\",");
	}

	private static RawResponse exchange(int port, String request) throws IOException {
		return RawResponse.parse(RawHttp.exchange(port, request));
	}

}
