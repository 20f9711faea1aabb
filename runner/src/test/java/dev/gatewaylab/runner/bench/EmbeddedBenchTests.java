package dev.gatewaylab.runner.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatewaylab.runner.LabFixture;
import dev.gatewaylab.runner.run.LabException;
import dev.gatewaylab.runner.run.Runs;
import dev.gatewaylab.runner.run.Settings;
import dev.gatewaylab.runner.stats.Percentiles;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the real embedded JMeter engine for a few seconds against a JDK HttpServer on a
 * random loopback port.
 */
class EmbeddedBenchTests {

	@TempDir
	Path tmp;

	@Test
	void benchRunsTheEngineServesLiveMetricsAndWritesReportsThatMatchTheRawJtl() throws Exception {
		try (LabFixture lab = new LabFixture(tmp.resolve("lab"))) {
			int metricsPort = LabFixture.freePort();
			CompletableFuture<String> scraped = CompletableFuture.supplyAsync(() -> pollMetrics(metricsPort));

			int code = lab.run("bench", "--targets", "direct,monolith", "--direct-url", lab.url(), "--monolith-url",
					lab.url(), "--repetitions", "2", "--duration", "2", "--warmup", "0", "--threads", "2",
					"--metrics-port", Integer.toString(metricsPort), "-J", "idMax=20", "--rate", "500",
					"--latency-repetitions", "2", "--latency-levels", "0.5,1");

			assertThat(code).as(lab.err()).isZero();
			assertThat(lab.out()).contains("| direct |", "| monolith |", "report:");
			assertThat(lab.hits.get()).isPositive();

			String metrics = scraped.get();
			assertThat(metrics)
				.contains("runner_requests_total{application=\"runner\",outcome=\"success\",plan=\"direct\","
						+ "target=\"direct\"}")
				.contains(
						"runner_request_duration_seconds_bucket{application=\"runner\",plan=\"direct\",target=\"direct\",le=\"0.05\"}")
				.contains("runner_active_threads{application=\"runner\",plan=\"direct\",target=\"direct\"}");

			Path dir;
			try (Stream<Path> s = Files.list(lab.home.resolve("results"))) {
				dir = s.findFirst().orElseThrow();
			}
			assertThat(dir.resolve(Runs.INCOMPLETE)).doesNotExist();
			assertThat(dir.resolve("report.md")).exists();
			assertThat(dir.resolve("jmeter-dashboard/direct/index.html")).exists();
			String html = Files.readString(dir.resolve("report.html"));
			assertThat(html).contains("<svg").doesNotContain("<script").doesNotContain("src=");

			JsonNode run = new ObjectMapper().readTree(dir.resolve("run.json").toFile());
			assertThat(run.has("settings")).isTrue();
			assertThat(run.get("environment").get("cores").asInt()).isPositive();
			assertThat(run.get("repetitions")).hasSize(4);
			// Alternating order: A B in odd repetitions, B A in even ones,
			// so a drift cannot favour one target.
			List<String> order = new ArrayList<>();
			run.get("repetitions").forEach(r -> order.add(r.get("target").asText() + r.get("rep").asInt()));
			assertThat(order).containsExactly("direct1", "monolith1", "monolith2", "direct2");
			assertThat(run.get("status").asText()).isEqualTo("valid");
			JsonNode latency = run.get("latency");
			assertThat(latency.get("answer_rate").asDouble()).isEqualTo(500);
			assertThat(latency.get("levels")).hasSize(2);
			// the answer rate: 2 repetitions at 500 req/s, each window the 1,000 samples
			// a p99 needs and the 10 % margin: 3 s, not --duration's 2
			JsonNode point = latency.get("levels").get(1).get("targets").get("direct");
			assertThat(point.get("samples").asLong()).isBetween(2_250L, 3_300L);
			assertThat(point.get("windows").asInt()).isEqualTo(2);
			assertThat(point.get("p50_us").asDouble()).isPositive();
			assertThat(point.get("p99_us").asDouble()).isPositive();
			assertThat(point.get("p999_us").isNull()).as("p99.9 is left out under 10,000 samples").isTrue();
			assertThat(lab.out()).contains("Latency across the load range", "answer: direct served");
			JsonNode direct = run.get("targets").get(0);
			for (String field : List.of("name", "samples", "tps", "tps_ci95", "avg_ms", "min_ms", "max_ms", "p50_ms",
					"p90_ms", "p99_ms", "success_rate", "errors")) {
				assertThat(direct.has(field)).as(field).isTrue();
			}
			assertThat(direct.get("name").asText()).isEqualTo("direct");
			// the dashboards, generated side by side: each from its own target's samples
			for (JsonNode target : run.get("targets")) {
				Path dashboard = dir.resolve("jmeter-dashboard").resolve(target.get("name").asText());
				assertThat(dashboard.resolve("index.html")).exists();
				JsonNode stats = new ObjectMapper().readTree(dashboard.resolve("statistics.json").toFile());
				assertThat(stats.get("Total").get("sampleCount").asLong()).as(target.get("name").asText())
					.isEqualTo(target.get("samples").asLong());
			}
			try (Stream<Path> left = Files.list(dir.resolve("jmeter-dashboard"))) {
				assertThat(left.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("direct", "monolith");
			}

			// Independent aggregate from the raw JTLs:
			// plain split (no quoted fields from this server).
			List<Long> elapsed = new ArrayList<>();
			long ok = 0;
			for (int rep = 1; rep <= 2; rep++) {
				List<String> lines = Files.readAllLines(dir.resolve("raw/direct-rep" + rep + ".jtl"));
				List<String> header = List.of(lines.get(0).split(","));
				int iElapsed = header.indexOf("elapsed");
				int iSuccess = header.indexOf("success");
				for (String line : lines.subList(1, lines.size())) {
					String[] f = line.split(",");
					elapsed.add(Long.parseLong(f[iElapsed]));
					ok += Boolean.parseBoolean(f[iSuccess]) ? 1 : 0;
				}
			}
			elapsed.sort(null);
			int n = elapsed.size();
			assertThat(direct.get("samples").asLong()).isEqualTo(n).isPositive();
			assertThat(direct.get("avg_ms").asDouble()).isCloseTo(
					elapsed.stream().mapToLong(Long::longValue).average().orElseThrow(),
					org.assertj.core.data.Offset.offset(1e-9));
			assertThat(direct.get("min_ms").asLong()).isEqualTo(elapsed.get(0));
			assertThat(direct.get("max_ms").asLong()).isEqualTo(elapsed.get(n - 1));
			// the p99 as the raw JTL gives it, where the samples can support one;
			// null where not
			if (n >= Percentiles.minSamples(99)) {
				assertThat(direct.get("p99_ms").asLong()).isEqualTo(elapsed.get((int) Math.ceil(0.99 * n) - 1));
			}
			else {
				assertThat(direct.get("p99_ms").isNull()).isTrue();
			}
			assertThat(direct.get("p50_ms").asLong()).isEqualTo(elapsed.get((int) Math.ceil(0.50 * n) - 1));
			assertThat(direct.get("success_rate").asDouble()).isEqualTo(100.0 * ok / n);
		}
	}

	/**
	 * Polls /metrics with a deadline until the direct target has samples; returns the
	 * last body.
	 */
	private static String pollMetrics(int port) {
		HttpClient client = HttpClient.newHttpClient();
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		String last = "";
		while (System.nanoTime() < deadline) {
			try {
				last = client
					.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
						.timeout(Duration.ofSeconds(1))
						.build(), HttpResponse.BodyHandlers.ofString())
					.body();
				if (last.contains("outcome=\"success\",plan=\"direct\",target=\"direct\"} ")
						&& !last.contains("target=\"direct\"} 0.0")) {
					return last;
				}
			}
			catch (IOException e) {
				// not up yet
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				return last;
			}
			// poll interval
			java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
		}
		return last;
	}

}
