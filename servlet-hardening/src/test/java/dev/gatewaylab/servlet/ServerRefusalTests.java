package dev.gatewaylab.servlet;

import java.io.IOException;

import dev.gatewaylab.testsupport.MalformedRequests;
import dev.gatewaylab.testsupport.RawHttp;
import dev.gatewaylab.testsupport.RawResponse;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Tomcat refuses before any application code ({@link ProblemErrorReportValve}) is a
 * full problem+json on the application port and on the management port alike: type,
 * title, status and, for a client error, a detail — never Tomcat's HTML report, never its
 * bare 400 for header fields over its limits (Tomcat's defaults here: 100 header fields,
 * 8 KB for the request line and header fields together).
 */
@HardenedServerTest
class ServerRefusalTests {

	@LocalServerPort
	int port;

	@LocalManagementPort
	int managementPort;

	@Test
	void headerFieldsOverEitherOfTomcatsLimitsAre431ProblemNamingTheLimit() throws IOException {
		assertHeaderFieldsTooLarge(MalformedRequests.headerLines("/api/things/1", 101),
				"The request has more than 100 header fields.");
		assertHeaderFieldsTooLarge(MalformedRequests.largeHeader("/api/things/1", 8_200),
				"The request line and header fields are larger than 8192 bytes.");
		for (String within : new String[] { MalformedRequests.headerLines("/api/things/1", 100),
				MalformedRequests.largeHeader("/api/things/1", 8_000) }) {
			assertThat(exchange(this.port, within).status()).as("within the limits").isEqualTo(200);
		}
	}

	@Test
	void aRequestLineOverTomcatsSizeLimitIs414Problem() throws IOException {
		RawResponse response = exchange(this.port, MalformedRequests.get("/api/things/" + "1".repeat(9_000)));
		assertThat(response.status()).isEqualTo(414);
		assertThat(response.body()).isEqualTo("{\"type\":\"about:blank\",\"title\":\"URI Too Long\",\"status\":414,"
				+ "\"detail\":\"The request line is longer than 8192 bytes.\"}");
	}

	@Test
	void aRequestTargetTomcatRefusesIs400ProblemOnBothPorts() throws IOException {
		for (int port : new int[] { this.port, this.managementPort }) {
			// a backslash is no URI character: Tomcat refuses the request line itself
			assertBadRequestProblem(exchange(port, MalformedRequests.backslashTraversal("/api/things")));
			// Tomcat refuses an encoded slash
			// (the management port answered with its HTML report)
			assertBadRequestProblem(exchange(port, MalformedRequests.get("/actuator/health/a%2fb")));
		}
		assertThat(exchange(this.port, MalformedRequests.get("/api/things/1")).status()).as("served afterwards")
			.isEqualTo(200);
	}

	@Test
	void moreLanguageRangesThanTomcatAcceptsAre400ProblemNot500() throws IOException {
		String ranges = String.join(",", java.util.Collections.nCopies(40, "en"));
		RawResponse response = exchange(this.port, "GET /api/things/1 HTTP/1.1\r\nHost: localhost\r\n"
				+ "Accept-Language: " + ranges + "\r\nConnection: close\r\n\r\n");
		assertThat(response.status()).isEqualTo(400);
		assertThat(response.body()).isEqualTo("{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":400,"
				+ "\"detail\":\"The Accept-Language header lists more language ranges than the server accepts.\"}");
		RawResponse few = exchange(this.port, "GET /api/things/1 HTTP/1.1\r\nHost: localhost\r\n"
				+ "Accept-Language: en,de;q=0.5\r\nConnection: close\r\n\r\n");
		assertThat(few.status()).as("a usual Accept-Language").isEqualTo(200);
	}

	private void assertHeaderFieldsTooLarge(String request, String detail) throws IOException {
		for (int port : new int[] { this.port, this.managementPort }) {
			RawResponse response = exchange(port, request);
			assertThat(response.status()).as("port " + port).isEqualTo(431);
			assertThat(response.isProblemJson()).isTrue();
			assertThat(response.body())
				.isEqualTo("{\"type\":\"about:blank\",\"title\":\"Request Header Fields Too Large\","
						+ "\"status\":431,\"detail\":\"" + detail + "\"}");
		}
	}

	private static void assertBadRequestProblem(RawResponse response) {
		assertThat(response.status()).isEqualTo(400);
		assertThat(response.isProblemJson()).isTrue();
		assertThat(response.body()).isEqualTo("{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":400,"
				+ "\"detail\":\"The request line, target or header fields are malformed.\"}");
	}

	private static RawResponse exchange(int port, String request) throws IOException {
		return RawResponse.parse(RawHttp.exchange(port, request));
	}

}
