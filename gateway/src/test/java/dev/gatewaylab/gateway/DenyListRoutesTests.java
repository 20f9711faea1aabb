package dev.gatewaylab.gateway;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The deny list in the running gateway: the test client connects from 127.0.0.1, a
 * trusted proxy by default, so X-Forwarded-For names the client.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = { "management.server.port=0",
		"LOG_PATH=target/logs", "management.endpoints.web.exposure.include=health,info,prometheus,denylist" })
class DenyListRoutesTests extends RunningGateway {

	static final Path ACCESS_LOG = Path.of("target/logs/gateway-access.log");

	@DynamicPropertySource
	static void denyList(DynamicPropertyRegistry registry) throws IOException {
		Path dir = Files.createDirectories(Path.of("target/deny-list-test"));
		Path rules = Files.writeString(dir.resolve("deny-list.txt"), "# test rules\n10.0.0.0/8\ndeny.2=198.51.100.7\n");
		registry.add("gateway.deny-list.file", rules::toString);
	}

	WebTestClient client;

	@BeforeEach
	void client() {
		this.client = clientOf(this.port);
	}

	void assertDenied(String path, String forwardedFor, String requestId) {
		byte[] body = this.client.get()
			.uri(path)
			.header("X-Forwarded-For", forwardedFor)
			.header("X-Request-Id", requestId)
			.exchange()
			.expectStatus()
			.isForbidden()
			.expectHeader()
			.contentType(MediaType.APPLICATION_JSON)
			.expectHeader()
			.valueEquals("X-Request-Id", requestId)
			.expectBody()
			.returnResult()
			.getResponseBodyContent();
		assertThat(new String(body)).isEqualTo("{\"resultMessage\":\"Deny\"}");
	}

	@Test
	void deniedClientGets403OnRoutedAndUnroutedPathsAndTheUpstreamSeesNothing() {
		assertDenied("/api/studies/1", "10.1.2.3", "deny-routed");
		assertDenied("/nope", "203.0.113.1, 198.51.100.7", "deny-unrouted");
		assertDenied("/actuator/prometheus", "10.0.0.1", "deny-actuator");
		assertThat(upstream.requestIds).doesNotContain("deny-routed", "deny-unrouted", "deny-actuator");
	}

	@Test
	void aDeniedClientWrittenWithAPortOrInIpv6FormIsDeniedToo() {
		assertDenied("/api/studies/1", "::ffff:10.1.2.3", "deny-mapped");
		assertDenied("/api/studies/1", "198.51.100.7:51234", "deny-port");
		assertDenied("/api/studies/1", "[::ffff:198.51.100.7]:443, 127.0.0.2:8080", "deny-bracketed");
		assertThat(upstream.requestIds).doesNotContain("deny-mapped", "deny-port", "deny-bracketed");
	}

	@Test
	void theManagementPortCanBypassTheListAndEnforceItAgain() {
		WebTestClient management = clientOf(this.managementPort);
		management.get()
			.uri("/actuator/denylist")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.enforced")
			.isEqualTo(true)
			.jsonPath("$.rules")
			.isEqualTo(2)
			.jsonPath("$.compiledFile")
			.value((file) -> assertThat(file.toString()).endsWith(".compiled"));
		try {
			management.post()
				.uri("/actuator/denylist")
				.bodyValue(java.util.Map.of("enforced", false))
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.enforced")
				.isEqualTo(false);
			this.client.get()
				.uri("/api/studies/1")
				.header("X-Forwarded-For", "10.1.2.3")
				.header("X-Request-Id", "bypassed-1")
				.exchange()
				.expectStatus()
				.isOk();
			assertThat(upstream.requestIds).contains("bypassed-1");
			assertThat(scrapeMetrics()).contains("gateway_deny_list_enforced{application=\"gateway\"} 0.0");
		}
		finally {
			management.post()
				.uri("/actuator/denylist")
				.bodyValue(java.util.Map.of("enforced", true))
				.exchange()
				.expectStatus()
				.isOk();
		}
		assertDenied("/api/studies/1", "10.1.2.3", "enforced-again-1");
	}

	@Test
	void allowedClientPassesUntouched() {
		this.client.get()
			.uri("/api/studies/1")
			.header("X-Forwarded-For", "11.1.2.3")
			.header("X-Request-Id", "allow-1")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.isEqualTo(Upstream.STUDY_JSON);
		assertThat(upstream.requestIds).contains("allow-1");
		this.client.get().uri("/nope").header("X-Forwarded-For", "11.1.2.3").exchange().expectStatus().isNotFound();
		this.client.get().uri("/api/studies/1").exchange().expectStatus().isOk();
	}

	@Test
	void deniedRequestsAreAccessLoggedWith403() {
		assertDenied("/api/studies/1", "10.1.2.3", "deny-logged-1");
		assertDenied("/unrouted", "10.1.2.3", "deny-logged-2");
		List<String> lines = awaitAccessLog("id=deny-logged-2 ");
		// one line per request at completion (AccessLogGlobalFilter): id, method, path,
		// client, status, duration
		assertThat(lines)
			.anyMatch((line) -> line.matches(
					".*id=deny-logged-1 method=GET path=/api/studies/1 client=\\S+ status=403 durationMs=\\d+\\.\\d+"))
			.anyMatch((line) -> line
				.matches(".*id=deny-logged-2 method=GET path=/unrouted client=\\S+ status=403 durationMs=\\d+\\.\\d+"));
	}

	@Test
	void metricsOnTheManagementPort() {
		assertDenied("/api/studies/1", "10.1.2.3", "deny-metrics");
		assertThat(scrapeMetrics()).containsPattern("gateway_deny_list_rules\\{application=\"gateway\"} 2.0")
			.containsPattern("gateway_deny_list_intervals\\{application=\"gateway\"} 2.0")
			.containsPattern("gateway_deny_list_memory_bytes\\{application=\"gateway\"} \\d")
			.containsPattern("gateway_deny_list_load_duration_seconds\\{application=\"gateway\"} \\d")
			.containsPattern("gateway_deny_list_last_load_success\\{application=\"gateway\"} 1.0")
			.containsPattern("gateway_deny_list_load_seconds_count\\{application=\"gateway\",result=\"success\"} 1")
			.containsPattern("gateway_deny_list_load_seconds_count\\{application=\"gateway\",result=\"failure\"} 0")
			.containsPattern("gateway_deny_list_skipped_lines\\{application=\"gateway\"} 0.0")
			.containsPattern("gateway_deny_list_denied_total\\{application=\"gateway\"} [1-9]");
	}

	/**
	 * Async loggers write on their own thread: poll the access log (with a deadline) for
	 * a line.
	 */
	static List<String> awaitAccessLog(String text) {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (true) {
			try {
				if (Files.exists(ACCESS_LOG)) {
					List<String> lines = Files.readAllLines(ACCESS_LOG);
					if (lines.stream().anyMatch((line) -> line.contains(text))) {
						return lines;
					}
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			if (System.nanoTime() > deadline) {
				fail("no access-log line containing '" + text + "' in " + ACCESS_LOG.toAbsolutePath() + " within 10 s");
			}
			LockSupport.parkNanos(20_000_000);
		}
	}

}
