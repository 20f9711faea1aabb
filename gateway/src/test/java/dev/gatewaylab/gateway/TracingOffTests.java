package dev.gatewaylab.gateway;

import io.micrometer.tracing.Tracer;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

import dev.gatewaylab.testsupport.CapturingAppender;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tracing absent, as by default: no tracer at all, nothing added to the upstream request,
 * no trace id in the access log or in error bodies. (Same properties as
 * {@link MalformedRequestLoggingTests}: one cached gateway.)
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "LOG_PATH=target/logs" })
class TracingOffTests extends RunningGateway {

	@Autowired
	ApplicationContext context;

	@Test
	void noTracerNoTraceparentNoTraceId() {
		assertThat(this.context.getBeanNamesForType(Tracer.class)).isEmpty();
		CapturingAppender accessLog = CapturingAppender.attachTo("dev.gatewaylab.gateway.access");
		try {
			clientOf(this.port).get()
				.uri("/api/studies/1")
				.header("X-Request-Id", "tracing-off-1")
				.exchange()
				.expectStatus()
				.isOk();
			assertThat(upstream.lastHeaders.contains("traceparent")).isFalse();
			assertThat(accessLog.awaitMessageContaining("id=tracing-off-1"))
				.filteredOn((line) -> line.contains("id=tracing-off-1"))
				.singleElement()
				.asString()
				.doesNotContain("trace");
			clientOf(this.port).get()
				.uri("/no/such/route")
				.exchange()
				.expectStatus()
				.isNotFound()
				.expectBody()
				.jsonPath("$.traceId")
				.doesNotExist();
		}
		finally {
			accessLog.detach();
		}
	}

}
