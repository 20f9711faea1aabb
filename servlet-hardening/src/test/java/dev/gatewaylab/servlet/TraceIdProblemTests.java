package dev.gatewaylab.servlet;

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
 * With tracing on (the lab's tracing module), the {@code /error} page's problem+json
 * names the request's trace: the one its {@code traceparent} continues (the gateway's).
 */
@SpringBootTest(classes = HardenedTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
		"tracing.enabled=true", "management.tracing.export.zipkin.enabled=false", "management.server.port=0" })
class TraceIdProblemTests {

	static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

	static final String TRACEPARENT = "00-" + TRACE_ID + "-00f067aa0ba902b7-01";

	@LocalServerPort
	int port;

	private final HttpClient client = HttpClient.newHttpClient();

	@Test
	void anUnmappedPathNamesTheTraceItsTraceparentContinues() throws Exception {
		HttpResponse<String> response = get("/api/nope/nope");
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(response.body()).contains("\"traceId\":\"" + TRACE_ID + "\"");
	}

	@Test
	void anErrorTheAppLeftToSpringNamesItsTraceToo() throws Exception {
		HttpResponse<String> response = get("/api/things/424242");
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.body()).contains("\"traceId\":\"" + TRACE_ID + "\"");
	}

	private HttpResponse<String> get(String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.header("traceparent", TRACEPARENT)
			.build();
		return this.client.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
