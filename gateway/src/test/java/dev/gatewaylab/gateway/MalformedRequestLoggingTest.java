package dev.gatewaylab.gateway;

import java.io.IOException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;

import dev.gatewaylab.gateway.logging.CapturingAppender;

import static org.assertj.core.api.Assertions.assertThat;

/** A malformed request is the client's error: 400 on the wire, in the access log, and no ERROR/WARN flood (issue 10). */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "LOG_PATH=target/logs" })
class MalformedRequestLoggingTest extends RunningGateway {

	CapturingAppender root;

	CapturingAppender access;

	@BeforeEach
	void capture() {
		this.root = CapturingAppender.attachTo("");
		this.access = CapturingAppender.attachTo("dev.gatewaylab.gateway.access");
	}

	@AfterEach
	void detach() {
		this.root.detach();
		this.access.detach();
	}

	@Test
	void malformedChunkedBodyIs400InTheAccessLogAndLogsNoErrorOrWarning() throws IOException {
		String response = RawHttp.exchange(this.port, "POST /api/studies HTTP/1.1\r\nHost: a\r\nX-Request-Id: bad-chunk\r\n"
				+ "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n");
		assertThat(response).startsWith("HTTP/1.1 400 ");
		String line = this.access.awaitMessageContaining("id=bad-chunk").stream()
			.filter((m) -> m.contains("id=bad-chunk"))
			.findFirst()
			.orElseThrow();
		assertThat(line).contains("status=400");
		assertThat(this.root.leveledMessages()).noneMatch((m) -> m.startsWith("ERROR") || m.startsWith("WARN"));
	}

	@Test
	void clientsThatHangUpMidRequestLogNoWarnings() throws IOException {
		for (int i = 0; i < 20; i++) {
			try (RawHttp raw = new RawHttp(this.port, 1000)) {
				raw.send("GET /api/studies/1 HTTP/1.1\r\nHost: a\r\nX-Half: ");
			}
		}
		// one well-formed request afterwards: its access line proves the earlier events had time to arrive
		RawHttp.exchange(this.port, "GET /api/studies/1 HTTP/1.1\r\nHost: a\r\nX-Request-Id: after-hangups\r\nConnection: close\r\n\r\n");
		this.access.awaitMessageContaining("id=after-hangups");
		assertThat(this.root.leveledMessages()).noneMatch((m) -> m.startsWith("ERROR") || m.startsWith("WARN"));
	}

}
