package dev.gatewaylab.study;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With tracing on, every problem+json body the study API writes names the request's
 * trace: the one its {@code traceparent} continues (the gateway's), or the one started
 * here.
 */
@SpringBootTest(classes = StudyTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "tracing.enabled=true", "management.tracing.export.zipkin.enabled=false",
				"management.server.port=0", "spring.flyway.locations=classpath:db/migration/study",
				"spring.datasource.url=jdbc:h2:mem:study-traced;DB_CLOSE_DELAY=-1" })
class TraceIdProblemTests {

	static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

	static final String TRACEPARENT = "00-" + TRACE_ID + "-00f067aa0ba902b7-01";

	@LocalServerPort
	int port;

	private final HttpClient client = HttpClient.newHttpClient();

	@Test
	void anUnknownStudyNamesTheTraceItsTraceparentContinues() throws Exception {
		HttpResponse<String> response = get("/api/studies/424242", TRACEPARENT);
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.body()).contains("\"traceId\":\"" + TRACE_ID + "\"");
	}

	@Test
	void anUnmappedApiPathNamesItsTraceToo() throws Exception {
		// answered by the study API's handler here,
		// not by servlet-hardening's /error page
		HttpResponse<String> response = get("/api/nope/nope", TRACEPARENT);
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(response.body()).contains("\"traceId\":\"" + TRACE_ID + "\"");
	}

	@Test
	void aBadBodyNamesATraceStartedHereWhenNoneCameIn() throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/studies"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"title\":"))
			.build();
		HttpResponse<String> response = this.client.send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).containsPattern("\"traceId\":\"[0-9a-f]{32}\"");
	}

	private HttpResponse<String> get(String path, String traceparent) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.header("traceparent", traceparent)
			.build();
		return this.client.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
