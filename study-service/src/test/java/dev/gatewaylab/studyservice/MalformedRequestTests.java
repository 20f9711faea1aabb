package dev.gatewaylab.studyservice;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

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
 * Requests no well-behaved client sends, straight to study-service (past the gateway):
 * each is the client's 4xx as problem+json, never a 500, and leaves no stack trace in the
 * log. Its own application context (the marker property), so that Tomcat is fresh: Tomcat
 * logs the first unparseable request line of each request processor at INFO with a stack
 * trace, later ones at DEBUG — a reused context would hide the first one.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "test.context=malformed-requests" })
class MalformedRequestTests {

	@LocalServerPort
	int port;

	@LocalManagementPort
	int managementPort;

	@Test
	void aRequestTargetTomcatRefusesIs400ProblemAndLogsNoStackTrace(CapturedOutput output) throws IOException {
		int logged = output.getAll().length();
		// a Windows-style traversal: the backslash is no URI character, so Tomcat refuses
		// the request line itself
		String response = exchange(
				"GET /api/studies/..\\..\\etc\\passwd HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
		assertThat(response).startsWith("HTTP/1.1 400 ").containsIgnoringCase("content-type: application/problem+json");
		assertThat(exchange("GET /api/studies/1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"))
			.as("served afterwards")
			.startsWith("HTTP/1.1 200 ");
		assertThat(output.getAll().substring(logged)).doesNotContain("Error parsing HTTP request header")
			.doesNotContain("\tat ");
	}

	@Test
	void aBadEscapeInAPathParameterIs400ProblemNot500(CapturedOutput output) throws IOException {
		int logged = output.getAll().length();
		// Tomcat passes path parameters (after ';') undecoded; Spring's path parser threw
		// on the bad escape: 500
		String response = exchange("GET /api/studies/1;a=%zz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
		assertThat(response).startsWith("HTTP/1.1 400 ").containsIgnoringCase("content-type: application/problem+json");
		assertThat(output.getAll().substring(logged)).doesNotContain("\tat ");
	}

	@Test
	void aFormBodyOnPutIs415ProblemNot500() throws IOException {
		// Boot's FormContentFilter parsed form bodies of PUT/PATCH/DELETE before any
		// controller and threw on '%zz'
		String body = "a=%zz";
		String response = exchange("PUT /api/studies/1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n"
				+ "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + body.length() + "\r\n\r\n"
				+ body);
		assertThat(response).startsWith("HTTP/1.1 415 ").containsIgnoringCase("content-type: application/problem+json");
	}

	@Test
	void aMalformedAcceptHeaderIsReadAsAcceptingAnythingAndErrorsKeepTheirProblemBody() throws IOException {
		// Spring answered 406 (and any error) with an empty body: it cannot pick a body
		// type for an Accept it cannot parse
		assertThat(exchange("GET /api/studies/1 HTTP/1.1\r\nHost: a\r\nAccept: a/b;q=x\r\nConnection: close\r\n\r\n"))
			.startsWith("HTTP/1.1 200 ")
			.containsIgnoringCase("content-type: application/json")
			.contains("\"id\":1");
		assertThat(
				exchange("GET /api/studies/424242 HTTP/1.1\r\nHost: a\r\nAccept: a/b;q=x\r\nConnection: close\r\n\r\n"))
			.startsWith("HTTP/1.1 404 ")
			.containsIgnoringCase("content-type: application/problem+json")
			.contains("\"status\":404");
		assertThat(exchange("GET / HTTP/1.1\r\nHost: a\r\nAccept: a/b;q=x\r\nConnection: close\r\n\r\n"))
			.startsWith("HTTP/1.1 404 ")
			.containsIgnoringCase("content-type: application/problem+json");
	}

	@Test
	void aMalformedAcceptHeaderLogsNoWarning(CapturedOutput output) throws IOException {
		int logged = output.getAll().length();
		exchange("GET / HTTP/1.1\r\nHost: a\r\nAccept: a/b;q=x\r\nConnection: close\r\n\r\n");
		assertThat(output.getAll().substring(logged)).as("Boot's welcome page mapping warned per request")
			.doesNotContain("Received invalid Accept header");
	}

	@Test
	void anEncodedSlashOnTheManagementPortIs400Problem() throws IOException {
		// the management port's own Tomcat answered with its HTML error report
		String request = "GET /actuator/health/a%2fb HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n";
		assertThat(exchange(this.managementPort, request)).startsWith("HTTP/1.1 400 ")
			.containsIgnoringCase("content-type: application/problem+json");
	}

	private String exchange(String request) throws IOException {
		return exchange(this.port, request);
	}

	private static String exchange(int port, String request) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			InputStream in = socket.getInputStream();
			in.transferTo(out);
			return out.toString(StandardCharsets.ISO_8859_1);
		}
	}

}
