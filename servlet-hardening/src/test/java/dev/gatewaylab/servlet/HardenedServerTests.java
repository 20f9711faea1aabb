package dev.gatewaylab.servlet;

import java.io.IOException;

import dev.gatewaylab.testsupport.MalformedRequests;
import dev.gatewaylab.testsupport.RawHttp;
import dev.gatewaylab.testsupport.RawResponse;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What this library puts in front of an app, on a real server and raw sockets: requests
 * no well-behaved client sends get the client's 4xx as problem+json — never a 500 and
 * never an empty body — before or outside the app's controllers, with nothing of the
 * app's own error handling.
 */
@HardenedServerTest
class HardenedServerTests {

	@LocalServerPort
	int port;

	@Test
	void aBadEscapeInAPathParameterIs400ProblemNot500() throws IOException {
		// Tomcat passes path parameters (after ';') undecoded;
		// Spring's path parser threw on the bad escape: 500
		RawResponse response = exchange(MalformedRequests.badEscapeInPathParameter("/api/things/1"));
		assertThat(response.status()).isEqualTo(400);
		assertThat(response.isProblemJson()).isTrue();
		assertThat(response.body()).contains("\"detail\":\"Malformed %-escape in a path parameter.\"");
	}

	@Test
	void aMalformedAcceptHeaderIsReadAsAcceptingAnythingAndErrorsKeepTheirProblemBody() throws IOException {
		// Spring answered 406 (and any error) with an empty body:
		// it cannot pick a body type for an Accept it cannot parse
		RawResponse thing = exchange(MalformedRequests.malformedAccept("/api/things/1"));
		assertThat(thing.status()).isEqualTo(200);
		assertThat(thing.contentType()).startsWith("application/json");
		assertThat(thing.body()).isEqualTo("{\"id\":1}");
		for (String target : new String[] { "/api/things/424242", "/nope" }) {
			RawResponse missing = exchange(MalformedRequests.malformedAccept(target));
			assertThat(missing.status()).as(target).isEqualTo(404);
			assertThat(missing.isProblemJson()).isTrue();
			assertThat(missing.body()).contains("\"status\":404");
		}
	}

	@Test
	void errorsOutsideTheApiAreProblemJsonToo() throws IOException {
		// GET /error directly was 500 with "status":999;
		// a browser's 404 was the Whitelabel HTML page
		for (String request : new String[] { MalformedRequests.get("/error"),
				MalformedRequests.get("/nope", "Accept: text/html"),
				MalformedRequests.get("/api/nope", "Accept: text/html") }) {
			RawResponse response = exchange(request);
			assertThat(response.status()).as(request).isEqualTo(404);
			assertThat(response.isProblemJson()).as(request).isTrue();
			assertThat(response.body()).contains("\"title\":\"Not Found\"");
		}
	}

	@Test
	void aBodyDeclaredOverTheLimitIs413ProblemBeforeAnyoneReadsIt() throws IOException {
		String big = "{\"title\":\"" + "x".repeat(20_000) + "\"}";
		RawResponse response = exchange("POST /api/things HTTP/1.1\r\nHost: a\r\nConnection: close\r\n"
				+ "Content-Type: application/json\r\nContent-Length: " + big.length() + "\r\n\r\n" + big);
		assertThat(response.status()).isEqualTo(413);
		assertThat(response.isProblemJson()).isTrue();
		assertThat(response.body()).isEqualTo("{\"type\":\"about:blank\",\"title\":\"Content Too Large\","
				+ "\"status\":413,\"detail\":\"The request body is larger than 10240 bytes.\"}");
		assertThat(response.header("Connection")).isEqualTo("close");
		String small = "{\"title\":\"x\"}";
		RawResponse within = exchange("POST /api/things HTTP/1.1\r\nHost: a\r\nConnection: close\r\n"
				+ "Content-Type: application/json\r\nContent-Length: " + small.length() + "\r\n\r\n" + small);
		assertThat(within.status()).as("within the limit").isEqualTo(200);
		assertThat(within.body()).isEqualTo(small);
	}

	private RawResponse exchange(String request) throws IOException {
		return RawResponse.parse(RawHttp.exchange(this.port, request));
	}

}
