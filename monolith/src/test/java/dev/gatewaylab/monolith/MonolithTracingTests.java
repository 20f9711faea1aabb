package dev.gatewaylab.monolith;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With tracing on, the monolith's own problem+json bodies (the login guard's, written
 * inside Spring Security's chain after the CSRF check) name the trace their
 * {@code traceparent} continues, as the study API's do.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "management.server.port=0",
		"MONOLITH_BCRYPT_COST=4", "tracing.enabled=true", "management.tracing.export.zipkin.enabled=false" })
class MonolithTracingTests {

	static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

	@LocalServerPort
	int port;

	@Test
	void theLoginGuardsRefusalNamesTheTrace() throws Exception {
		BrowserSession browser = BrowserSession.open(this.port);
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/login"))
			.header("traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b7-01")
			.header("Cookie", browser.cookie())
			.header("Content-Type", "application/x-www-form-urlencoded")
			.POST(HttpRequest.BodyPublishers.ofString(
					"username=us%01er&password=x&_csrf=" + URLEncoder.encode(browser.token(), StandardCharsets.UTF_8)))
			.build();
		HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).endsWith(",\"traceId\":\"" + TRACE_ID + "\"}");
	}

}
