package dev.gatewaylab.gatewaymvc;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import dev.gatewaylab.gatewaymvc.StubUpstream.Answer;
import dev.gatewaylab.testsupport.RawHttp;
import dev.gatewaylab.testsupport.RawResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bad input gets the client's 4xx as problem+json from the servlet-hardening module,
 * never a 500, and never reaches the upstream: a body over the limit (sized or chunked),
 * a head over the header limit, a malformed path parameter.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "GATEWAY_MAX_BODY_SIZE=1KB", "logging.file.path=target/logs" })
class GatewayMvcHardeningTests {

	static final StubUpstream study = GatewayMvcRoutesTests.Upstreams.start((request) -> Answer.json(200, "{}"));

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void upstreams(DynamicPropertyRegistry registry) {
		Threads.register(registry);
		registry.add("STUDY_SERVICE_URL", study::url);
	}

	@AfterAll
	static void stop() throws IOException {
		study.close();
	}

	@Test
	void aBodyWhoseLengthIsOverTheLimitIs413() throws Exception {
		HttpResponse<String> response = GatewayMvcRoutesTests.send(HttpRequest.newBuilder(uri("/api/studies/sized"))
			.POST(HttpRequest.BodyPublishers.ofString("x".repeat(2048)))
			.build());

		assertThat(response.statusCode()).isEqualTo(413);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(study.requestsTo("/api/studies/sized")).isEmpty();
	}

	@Test
	void aChunkedBodyThatOutgrowsTheLimitOnItsWayUpstreamIs413() throws Exception {
		String chunk = "x".repeat(600);
		String exchanged;
		try (RawHttp http = new RawHttp(this.port, 10_000)) {
			exchanged = http
				.send("POST /api/studies/chunked HTTP/1.1\r\nHost: localhost\r\n"
						+ "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk(chunk)
						+ chunk(chunk) + chunk(chunk) + "0\r\n\r\n")
				.readAll();
		}
		RawResponse response = RawResponse.parse(exchanged);

		assertThat(response.status()).isEqualTo(413);
		assertThat(response.isProblemJson()).isTrue();
		assertThat(response.body()).contains("larger than 1024 bytes");
	}

	@Test
	void aHeadOverTheHeaderLimitIs431() throws Exception {
		String exchanged;
		try (RawHttp http = new RawHttp(this.port, 10_000)) {
			exchanged = http
				.send("GET /api/studies/1 HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "y".repeat(8000)
						+ "\r\nConnection: close\r\n\r\n")
				.readAll();
		}
		RawResponse response = RawResponse.parse(exchanged);

		assertThat(response.status()).isEqualTo(431);
		assertThat(response.isProblemJson()).isTrue();
	}

	@Test
	void aMalformedPathParameterIs400() throws Exception {
		String exchanged;
		try (RawHttp http = new RawHttp(this.port, 10_000)) {
			exchanged = http.send("GET /api/studies/1;a=%zz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
				.readAll();
		}
		RawResponse response = RawResponse.parse(exchanged);

		assertThat(response.status()).isEqualTo(400);
		assertThat(response.isProblemJson()).isTrue();
		assertThat(study.requestsTo("/api/studies/1;")).isEmpty();
	}

	private static String chunk(String data) {
		return Integer.toHexString(data.length()) + "\r\n" + data + "\r\n";
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

}
