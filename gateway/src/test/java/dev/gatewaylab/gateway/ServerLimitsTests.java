package dev.gatewaylab.gateway;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;

import dev.gatewaylab.testsupport.RawHttp;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What one client may put on one connection, on a raw socket: pipelined requests past the
 * depth the gateway holds, header sections its upstreams would refuse, a second
 * {@code X-Request-Id}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "LOG_PATH=target/logs", "GATEWAY_IDLE_TIMEOUT=1s",
				"GATEWAY_READ_TIMEOUT=500ms", "GATEWAY_MAX_BODY_SIZE=1KB", "STUDY_SERVICE_RESPONSE_TIMEOUT_MS=3000" })
class ServerLimitsTests extends LoggedRunningGateway {

	static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.1 (\\d{3}) ");

	@Test
	void pipelinedRequestsPastTheDepthGetOne429InOrderAndAnHonestAccessLog() throws IOException {
		// Netty's own limit (128): a WARN per connection, a close after some 27 answers,
		// and access lines with status=200 for answers never sent
		StringBuilder requests = new StringBuilder();
		for (int i = 0; i < 200; i++) {
			requests.append("GET /api/studies/1 HTTP/1.1\r\nHost: a\r\nX-Request-Id: pipe-")
				.append(i)
				.append("\r\n\r\n");
		}
		String responses = RawHttp.exchange(this.port, requests.toString());
		List<String> statuses = new ArrayList<>();
		for (Matcher status = STATUS_LINE.matcher(responses); status.find();) {
			statuses.add(status.group(1));
		}
		int answered = statuses.size() - 1;
		assertThat(answered).isBetween(64, 199);
		assertThat(statuses.subList(0, answered)).containsOnly("200");
		assertThat(statuses.get(answered)).isEqualTo("429");
		assertThat(responses).endsWith("send them again on a new connection.\"}");
		String last = "id=pipe-" + (answered - 1) + " ";
		this.access.awaitMessageContaining(last);
		assertThat(this.access.messages()).filteredOn((line) -> line.contains("id=pipe-"))
			.hasSize(answered)
			.allMatch((line) -> line.contains("status=200"));
		assertNoErrorOrWarning();
	}

	@Test
	void headerLinesAnUpstreamWouldRefuseAre431AndTheRestFitsItsLimit() throws IOException {
		// Tomcat takes 100 header lines; the gateway adds up to five. get() sends two
		// more
		// lines: Host and Connection.
		assertThat(get(headers(93, 1))).startsWith("HTTP/1.1 200 ");
		assertThat(upstream.lastHeaders.size()).isLessThanOrEqualTo(100);
		assertThat(get(headers(94, 1))).startsWith("HTTP/1.1 431 ").contains("application/problem+json");
		assertThat(get(headers(98, 1))).as("100 lines").startsWith("HTTP/1.1 431 ");
	}

	@Test
	void aHeaderSectionAnUpstreamWouldRefuseIs431AndTheRestFitsItsLimit() throws IOException {
		// Tomcat takes 8 KB of request line and headers; the gateway adds up to 512 bytes
		assertThat(get(headers(1, 8000))).startsWith("HTTP/1.1 431 ").contains("application/problem+json");
		assertThat(get(headers(1, 7400))).startsWith("HTTP/1.1 200 ");
		int forwarded = "GET /api/studies/1 HTTP/1.1\r\n".length() + 2;
		for (Map.Entry<String, String> header : upstream.lastHeaders) {
			forwarded += header.getKey().length() + 2 + header.getValue().length() + 2;
		}
		assertThat(forwarded).isLessThanOrEqualTo(8192);
	}

	@Test
	void theUpstreamSeesExactlyOneValidRequestId() throws IOException {
		assertThat(get("X-Request-Id: ok-1\r\nX-Request-Id: evil value <script> with spaces\r\n"))
			.startsWith("HTTP/1.1 200 ")
			.containsIgnoringCase("X-Request-Id: ok-1\r\n");
		assertThat(upstream.lastHeaders.getAll("X-Request-Id")).containsExactly("ok-1");

		String response = get("X-Request-Id: evil value <script> with spaces\r\nX-Request-Id: ok-2\r\n");
		List<String> sent = upstream.lastHeaders.getAll("X-Request-Id");
		assertThat(sent).singleElement().asString().matches("[0-9a-f-]{36}");
		assertThat(response).containsIgnoringCase("X-Request-Id: " + sent.get(0) + "\r\n");

		get("X-Request-Id: same\r\nX-Request-Id: same\r\n");
		assertThat(upstream.lastHeaders.getAll("X-Request-Id")).containsExactly("same");
	}

	/** GET /api/studies/1 with these header lines between Host and Connection. */
	String get(String headers) throws IOException {
		return RawHttp.exchange(this.port,
				"GET /api/studies/1 HTTP/1.1\r\nHost: a\r\n" + headers + "Connection: close\r\n\r\n");
	}

	/** {@code lines} header lines, the last one's value {@code lastSize} bytes long. */
	static String headers(int lines, int lastSize) {
		StringBuilder headers = new StringBuilder();
		for (int i = 1; i < lines; i++) {
			headers.append("X-H").append(i).append(": v\r\n");
		}
		return headers.append("X-Last: ").append("v".repeat(lastSize)).append("\r\n").toString();
	}

}
