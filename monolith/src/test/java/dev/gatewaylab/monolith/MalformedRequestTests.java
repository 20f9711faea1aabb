package dev.gatewaylab.monolith;

import java.io.IOException;

import dev.gatewaylab.testsupport.MalformedRequests;
import dev.gatewaylab.testsupport.RawHttp;
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
 * What the monolith's fuzz test found in its own pages, security and configuration, one
 * test each: requests no browser sends are the client's 4xx, never a 500, and path tricks
 * leave no WARN or stack trace in the log (what servlet-hardening answers — path
 * parameters, Tomcat's refusals, the management port, a malformed Accept — is tested
 * there). Its own application context (the marker property), so that Tomcat is fresh:
 * Tomcat logs the first unparseable request line of each request processor at INFO with a
 * stack trace, later ones at DEBUG — a reused context would hide the first one.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "management.server.port=0",
		"MONOLITH_BCRYPT_COST=4", "TOMCAT_REQUEST_HEAD_TIMEOUT=2s", "test.context=malformed-requests" })
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
		assertThat(exchange(MalformedRequests.backslashTraversal("/css"))).startsWith("HTTP/1.1 400 ");
		assertThat(output.getAll().substring(logged)).doesNotContain("Error parsing HTTP request header")
			.doesNotContain("\tat ");
	}

	@Test
	void traversalAndDescriptorPathsUnderTheStaticResourcesAre404AndLogNoWarning(CapturedOutput output)
			throws IOException {
		int logged = output.getAll().length();
		// the static resource handler warned for each:
		// "Path contains "../" after call to StringUtils#cleanPath",
		// "Path with "WEB-INF" or "META-INF""
		for (String path : new String[] { "/css/a../b.css", "/css/META-INF/MANIFEST.MF", "/css/WEB-INF/web.xml" }) {
			assertThat(exchange(MalformedRequests.get(path))).as(path).startsWith("HTTP/1.1 404 ");
		}
		assertThat(output.getAll().substring(logged)).doesNotContain("ResourceHandlerUtils").doesNotContain(" WARN ");
	}

	@Test
	void theErrorPageAskedForDirectlyByABrowserIs404Not500() throws IOException {
		// Boot's HTML error view had no status to show for GET /error itself
		// and answered 500
		assertThat(exchange(MalformedRequests.get("/error", "Accept: text/html"))).startsWith("HTTP/1.1 404 ")
			.containsIgnoringCase("content-type: text/html")
			.contains("<h1>404 Not Found</h1>");
	}

	@Test
	void aFormBodyOnPatchOrDeleteIsNot500() throws IOException {
		// Boot's FormContentFilter parsed form bodies of PUT/PATCH/DELETE before
		// Spring Security and threw on '%zz' (500), or on a chunked body over the
		// size limit (500): now nothing reads them, and the CSRF check refuses both
		String body = "_csrf=x&a=%zz";
		assertThat(exchange("PATCH /login HTTP/1.1\r\nHost: a\r\nConnection: close\r\n"
				+ "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + body.length() + "\r\n\r\n"
				+ body))
			.startsWith("HTTP/1.1 403 ")
			.containsIgnoringCase("content-type: application/problem+json");
		String big = "a=" + "b".repeat(1_100_000);
		assertThat(exchange("DELETE /login HTTP/1.1\r\nHost: a\r\nConnection: close\r\n"
				+ "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n"
				+ Integer.toHexString(big.length()) + "\r\n" + big + "\r\n0\r\n\r\n"))
			.startsWith("HTTP/1.1 403 ")
			.containsIgnoringCase("content-type: application/problem+json");
	}

	@Test
	void aPageRequestClaimingMultipartIsNot500AndLogsNoError(CapturedOutput output) throws IOException {
		int logged = output.getAll().length();
		// the multipart body was parsed before any handler; a browser page's failure
		// escaped as a 500 with two ERROR stack traces (the error page's dispatch
		// parsed it again)
		String multipart = "Content-Type: multipart/form-data\r\nContent-Length: 3\r\n\r\na=b";
		assertThat(exchange("GET /login HTTP/1.1\r\nHost: a\r\nAccept: text/html\r\nConnection: close\r\n" + multipart))
			.startsWith("HTTP/1.1 200 ");
		assertThat(exchange(
				"GET /css/missing.css HTTP/1.1\r\nHost: a\r\nAccept: text/html\r\nConnection: close\r\n" + multipart))
			.startsWith("HTTP/1.1 404 ");
		assertThat(exchange("POST /login HTTP/1.1\r\nHost: a\r\nConnection: close\r\n" + multipart))
			.as("refused for its missing CSRF token")
			.startsWith("HTTP/1.1 403 ")
			.containsIgnoringCase("content-type: application/problem+json");
		assertThat(output.getAll().substring(logged)).doesNotContain(" ERROR ").doesNotContain("\tat ");
	}

	@Test
	void aMalformedAcceptHeaderStillGetsAProblemBody() throws IOException {
		// Spring answered errors with an empty body:
		// it cannot pick a body type for an Accept it cannot parse
		assertThat(exchange(
				"PUT /login HTTP/1.1\r\nHost: a\r\nAccept: a/b;q=x\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"))
			.startsWith("HTTP/1.1 403 ")
			.containsIgnoringCase("content-type: application/problem+json")
			.contains("\"status\":403");
	}

	@Test
	void aMalformedAcceptHeaderLogsNoWarning(CapturedOutput output) throws IOException {
		int logged = output.getAll().length();
		// any path no controller maps (a public one here) is offered
		// to Boot's welcome page mapping, which parses Accept
		exchange(MalformedRequests.malformedAccept("/css/missing.css"));
		assertThat(output.getAll().substring(logged)).as("Boot's welcome page mapping warned per request")
			.doesNotContain("Received invalid Accept header");
	}

	private String exchange(String request) throws IOException {
		return RawHttp.exchange(this.port, request, 10_000);
	}

}
