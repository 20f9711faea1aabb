package dev.gatewaylab.floor;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

class ManagementServerTests {

	private static final HttpClient CLIENT = HttpClient.newHttpClient();

	@Test
	void readinessFollowsTheProxy() throws Exception {
		AtomicBoolean up = new AtomicBoolean(false);
		try (ManagementServer m = new ManagementServer("127.0.0.1", 0, up::get)) {
			assertThat(get(m, "/actuator/health/readiness").statusCode()).isEqualTo(503);
			assertThat(get(m, "/actuator/health/liveness").statusCode()).isEqualTo(200);
			up.set(true);
			HttpResponse<String> r = get(m, "/actuator/health/readiness");
			assertThat(r.statusCode()).isEqualTo(200);
			assertThat(r.body()).isEqualTo("{\"status\":\"UP\"}");
		}
	}

	@Test
	void prometheusHasTheJvmMetersTheWarmUpReadsTaggedWithTheApplication() throws Exception {
		try (ManagementServer m = new ManagementServer("127.0.0.1", 0, () -> true)) {
			HttpResponse<String> r = get(m, "/actuator/prometheus");
			assertThat(r.statusCode()).isEqualTo(200);
			assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying((t) -> t.startsWith("text/plain"));
			assertThat(r.body())
				.containsPattern("(?m)^jvm_compilation_time_ms_total\\{[^}]*application=\"floor\"[^}]*} [0-9.E]+$")
				.contains("jvm_memory_used_bytes{");
		}
	}

	@Test
	void anythingElseIs404Or405ProblemJson() throws Exception {
		try (ManagementServer m = new ManagementServer("127.0.0.1", 0, () -> true)) {
			HttpResponse<String> r = get(m, "/actuator/env");
			assertThat(r.statusCode()).isEqualTo(404);
			assertThat(r.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			HttpResponse<String> post = CLIENT.send(HttpRequest.newBuilder(uri(m, "/actuator/prometheus"))
				.POST(HttpRequest.BodyPublishers.noBody())
				.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(post.statusCode()).isEqualTo(405);
		}
	}

	private static HttpResponse<String> get(ManagementServer m, String path) throws Exception {
		return CLIENT.send(HttpRequest.newBuilder(uri(m, path)).build(), HttpResponse.BodyHandlers.ofString());
	}

	private static URI uri(ManagementServer m, String path) {
		return URI.create("http://127.0.0.1:" + m.port() + path);
	}

}
