package dev.gatewaylab.gateway;

import java.io.IOException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import dev.gatewaylab.testsupport.CapturingAppender;
import dev.gatewaylab.testsupport.RawHttp;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@link RunningGateway} whose log is captured per test: its access log, and every
 * other logger from the moment the test starts.
 * <p>
 * Before a test, one call goes through and its access line is awaited: this context's
 * first upstream connection registers the pool's gauges, and Micrometer warns once when
 * another test class's gateway context in this JVM registered them first — a test-JVM
 * artifact, delivered (async loggers keep their order) before that line, so before the
 * root capture starts.
 */
abstract class LoggedRunningGateway extends RunningGateway {

	CapturingAppender root;

	CapturingAppender access;

	@BeforeEach
	void capture() throws IOException {
		this.access = CapturingAppender.attachTo("dev.gatewaylab.gateway.access");
		String id = "warm-up-" + System.nanoTime();
		RawHttp.exchange(this.port,
				"GET /api/studies/1 HTTP/1.1\r\nHost: a\r\nX-Request-Id: " + id + "\r\nConnection: close\r\n\r\n");
		this.access.awaitMessageContaining("id=" + id);
		this.root = CapturingAppender.attachTo("");
	}

	@AfterEach
	void detach() {
		this.root.detach();
		this.access.detach();
	}

	/** Nothing was logged at ERROR or WARN since the test started. */
	void assertNoErrorOrWarning() {
		assertThat(this.root.leveledMessages()).noneMatch((m) -> m.startsWith("ERROR") || m.startsWith("WARN"));
	}

}
