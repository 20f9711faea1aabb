package dev.gatewaylab.study;

import java.io.IOException;

import dev.gatewaylab.testsupport.MalformedRequests;
import dev.gatewaylab.testsupport.RawHttp;
import dev.gatewaylab.testsupport.RawResponse;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What this library puts in front of the study API, on a real server and raw sockets:
 * requests no well-behaved client sends get the client's 4xx as problem+json — never a
 * 500 and never an empty body — before or outside the controllers.
 */
@StudyServerTest
class StudyServerTests {

	@LocalServerPort
	int port;

	@Test
	void aBadEscapeInAPathParameterIs400ProblemNot500() throws IOException {
		// Tomcat passes path parameters (after ';') undecoded; Spring's path parser threw
		// on the bad escape: 500
		RawResponse response = exchange(MalformedRequests.badEscapeInPathParameter("/api/studies/1"));
		assertThat(response.status()).isEqualTo(400);
		assertThat(response.isProblemJson()).isTrue();
		assertThat(response.body()).contains("\"detail\":\"Malformed %-escape in a path parameter.\"");
	}

	@Test
	void aMalformedAcceptHeaderIsReadAsAcceptingAnythingAndErrorsKeepTheirProblemBody() throws IOException {
		// Spring answered 406 (and any error) with an empty body: it cannot pick a body
		// type for an Accept it cannot parse
		RawResponse study = exchange(MalformedRequests.malformedAccept("/api/studies/1"));
		assertThat(study.status()).isEqualTo(200);
		assertThat(study.contentType()).startsWith("application/json");
		assertThat(study.body()).startsWith("{\"id\":1,");
		for (String target : new String[] { "/api/studies/424242", "/nope" }) {
			RawResponse missing = exchange(MalformedRequests.malformedAccept(target));
			assertThat(missing.status()).as(target).isEqualTo(404);
			assertThat(missing.isProblemJson()).isTrue();
			assertThat(missing.body()).contains("\"status\":404");
		}
	}

	@Test
	void errorsOutsideTheApiAreProblemJsonToo() throws IOException {
		// GET /error directly was 500 with "status":999; a browser's 404 was the
		// Whitelabel HTML page
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
	void aBodyOverTheLimitIs413ProblemWithOrWithoutContentLength() throws IOException {
		String big = "{\"title\":\"" + "x".repeat(20_000) + "\",\"capacity\":3}";
		String head = "POST /api/studies HTTP/1.1\r\nHost: a\r\nConnection: close\r\nContent-Type: application/json\r\n";
		RawResponse declared = exchange(head + "Content-Length: " + big.length() + "\r\n\r\n" + big);
		RawResponse chunked = exchange(head + "Transfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(big.length())
				+ "\r\n" + big + "\r\n0\r\n\r\n");
		for (RawResponse response : new RawResponse[] { declared, chunked }) {
			assertThat(response.status()).isEqualTo(413);
			assertThat(response.isProblemJson()).isTrue();
			assertThat(response.body()).contains("\"detail\":\"The request body is larger than 10240 bytes.\"");
		}
	}

	private RawResponse exchange(String request) throws IOException {
		return RawResponse.parse(RawHttp.exchange(this.port, request));
	}

}
