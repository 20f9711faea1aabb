package dev.gatewaylab.studyservice;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bounded fuzz of the study API (hardening): 2,000 requests from a fixed seed — mutated
 * JSON bodies, odd content types, random ids, paths and query values. Every answer must
 * be below 500, carry no stack trace, and every error must be problem+json; the app must
 * still serve a normal request afterwards.
 */
// its own database: the fuzz writes studies,
// which the contract tests of other classes must not see
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "management.server.port=0",
		"spring.datasource.url=jdbc:h2:mem:study-service-fuzz;DB_CLOSE_DELAY=-1" })
class StudyApiFuzzTests {

	private static final String VALID = "{\"title\":\"Fuzz\",\"description\":\"d\",\"category\":\"backend\",\"capacity\":12}";

	private static final String[] TOKENS = { "null", "true", "-1", "1e999", "99999999999999999999", "\"\"", "[]", "{}",
			"\"\\u0000\"", "\"" + "x".repeat(300) + "\"", "0.5", "\"backend\"", "NaN", "{\"a\":[[[[[]]]]]}" };

	private static final String[] TYPES = { "application/json", "text/plain", "application/xml",
			"application/json; charset=latin1", "multipart/form-data", "application/x-www-form-urlencoded", "*/*" };

	@LocalServerPort
	int port;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@Test
	void twoThousandFuzzedRequestsNeverGiveA5xxAStackTraceOrANonProblemError() throws Exception {
		Random random = new Random(20261123L);
		List<String> failures = new ArrayList<>();
		for (int i = 0; i < 2000 && failures.size() < 10; i++) {
			HttpRequest request = fuzzed(random);
			HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
			String type = response.headers().firstValue("Content-Type").orElse("");
			String body = response.body();
			boolean bad = response.statusCode() >= 500 || body.contains("Exception") || body.contains("\tat ")
					|| (response.statusCode() >= 400 && !type.startsWith("application/problem+json"));
			if (bad) {
				failures.add(request.method() + " " + request.uri() + " -> " + response.statusCode() + " " + type + " "
						+ body.substring(0, Math.min(body.length(), 200)));
			}
		}
		assertThat(failures).isEmpty();
		assertThat(this.http
			.send(HttpRequest.newBuilder(uri("/api/studies/1")).build(), HttpResponse.BodyHandlers.ofString())
			.statusCode()).isEqualTo(200);
	}

	private HttpRequest fuzzed(Random random) {
		switch (random.nextInt(4)) {
			case 0: { // mutated body on create or update
				String target = random.nextBoolean() ? "/api/studies" : "/api/studies/" + (1 + random.nextInt(50));
				HttpRequest.Builder builder = HttpRequest.newBuilder(uri(target))
					.header("Content-Type", TYPES[random.nextInt(TYPES.length)]);
				HttpRequest.BodyPublisher body = HttpRequest.BodyPublishers.ofString(mutate(random));
				return (target.equals("/api/studies") ? builder.POST(body) : builder.PUT(body)).build();
			}
			case 1: // random id
				return HttpRequest
					.newBuilder(uri("/api/studies/" + URLEncoder.encode(junk(random), StandardCharsets.UTF_8)))
					.build();
			case 2: // random list query
				return HttpRequest
					.newBuilder(uri("/api/studies?category=" + URLEncoder.encode(junk(random), StandardCharsets.UTF_8)
							+ "&page=" + URLEncoder.encode(junk(random), StandardCharsets.UTF_8) + "&size="
							+ URLEncoder.encode(junk(random), StandardCharsets.UTF_8)))
					.build();
			default: { // random method on a random path under the API
				String[] methods = { "GET", "DELETE", "PATCH", "OPTIONS", "HEAD", "PUT", "POST" };
				return HttpRequest
					.newBuilder(uri("/api/studies/" + random.nextInt(3) + "/"
							+ URLEncoder.encode(junk(random), StandardCharsets.UTF_8)))
					.method(methods[random.nextInt(methods.length)], HttpRequest.BodyPublishers.noBody())
					.build();
			}
		}
	}

	private static String mutate(Random random) {
		StringBuilder json = new StringBuilder(VALID);
		int edits = 1 + random.nextInt(4);
		for (int e = 0; e < edits; e++) {
			int at = random.nextInt(json.length() + 1);
			switch (random.nextInt(4)) {
				case 0 -> {
					if (at < json.length())
						json.deleteCharAt(at);
				}
				case 1 -> json.insert(at, TOKENS[random.nextInt(TOKENS.length)]);
				case 2 -> json.insert(at, (char) (32 + random.nextInt(95)));
				default -> {
					String field = List.of("title", "capacity", "category", "description").get(random.nextInt(4));
					int start = json.indexOf("\"" + field + "\":");
					if (start >= 0) {
						int from = start + field.length() + 3;
						int to = json.indexOf(",", from);
						json.replace(from, (to < 0) ? json.length() - 1 : to, TOKENS[random.nextInt(TOKENS.length)]);
					}
				}
			}
		}
		return json.toString();
	}

	private static String junk(Random random) {
		String[] seeds = { "1", "-1", "0", "abc", "99999999999999999999", "1.5", "", " ", "%", "ai", "backend", "1e3",
				"<script>", "../../etc", "\u00e9", "1;2" };
		return seeds[random.nextInt(seeds.length)]
				+ ((random.nextInt(4) == 0) ? seeds[random.nextInt(seeds.length)] : "");
	}

	private URI uri(String path) {
		return URI.create("http://localhost:" + this.port + path);
	}

}
