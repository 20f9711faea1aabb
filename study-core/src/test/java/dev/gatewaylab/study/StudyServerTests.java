package dev.gatewaylab.study;

import java.io.IOException;

import dev.gatewaylab.testsupport.MalformedRequests;
import dev.gatewaylab.testsupport.RawHttp;
import dev.gatewaylab.testsupport.RawResponse;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The study API behind the servlet hardening this library brings along, on a real server
 * and raw sockets: where the hardening meets the API's own error handling
 * ({@link StudyProblemHandler}), requests no well-behaved client sends still get the
 * client's 4xx as problem+json — never a 500 and never an empty body. The hardening alone
 * (path parameters, Tomcat's refusals, the {@code /error} page) is tested in
 * servlet-hardening.
 */
@StudyServerTest
class StudyServerTests {

	@LocalServerPort
	int port;

	@Test
	void aMalformedAcceptHeaderIsReadAsAcceptingAnythingAndErrorsKeepTheirProblemBody() throws IOException {
		// Spring answered 406 (and any error) with an empty body:
		// it cannot pick a body type for an Accept it cannot parse.
		// A client that does not ask for HTML gets the study API's answer,
		// problem+json for /nope too.
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
	void anApiPathIsProblemJsonEvenForABrowser() throws IOException {
		// /api/... is the study API's whatever the client accepts;
		// other paths a browser asks for go to the /error page (servlet-hardening)
		RawResponse response = exchange(MalformedRequests.get("/api/nope", "Accept: text/html"));
		assertThat(response.status()).isEqualTo(404);
		assertThat(response.isProblemJson()).isTrue();
		assertThat(response.body()).contains("\"title\":\"Not Found\"");
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
