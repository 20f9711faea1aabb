package dev.gatewaylab.runner.latency;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OpenLoadTests {

	private HttpServer server;

	private final Set<String> paths = ConcurrentHashMap.newKeySet();

	private volatile int status = 200;

	private volatile long delayMs;

	@BeforeEach
	void start() throws Exception {
		// the JDK server otherwise waits for delayed ACKs (Nagle): ~40 ms per response
		System.setProperty("sun.net.httpserver.nodelay", "true");
		server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 200);
		server.setExecutor(Executors.newFixedThreadPool(16));
		server.createContext("/", exchange -> {
			paths.add(exchange.getRequestURI().getPath());
			try {
				Thread.sleep(delayMs);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
			byte[] body = "{\"id\":1}".getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(status, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});
		server.start();
	}

	@AfterEach
	void stop() {
		server.stop(0);
	}

	private URI base() {
		return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
	}

	@Test
	void sendsArrivalsAtTheRateAndRecordsMicrosecondResponseTimes() {
		OpenLoad.Window w = OpenLoad.run(base(), PlanRequest.parse("GET /api/studies/{id}", 1, 50, 200), 300, 2, 8);
		assertThat(w.requests()).isBetween(450L, 750L);
		assertThat(w.ok()).isEqualTo(w.requests());
		assertThat(w.successRate()).isEqualTo(100.0);
		assertThat(w.histogram().getTotalCount()).isEqualTo(w.responses());
		// nanoseconds, not whole milliseconds: a loopback answer takes well under 1 ms
		// at p50 and is not a multiple of 1 ms
		long p50 = w.histogram().getValueAtPercentile(50);
		assertThat(p50).isGreaterThan(1_000).isLessThan(50_000_000);
		assertThat(p50 % 1_000_000).isNotZero();
		assertThat(paths).allMatch(p -> p.matches("/api/studies/([1-9]|[1-4][0-9]|50)")).hasSizeGreaterThan(20);
	}

	@Test
	void aStallIsPaidByEveryArrivalDuringIt() {
		delayMs = 100;
		// one connection: arrivals queue behind each other; their waiting counts
		OpenLoad.Window w = OpenLoad.run(base(), PlanRequest.parse("GET /x", 1, 1, 200), 50, 1, 1);
		assertThat(w.histogram().getValueAtPercentile(90)).isGreaterThan(1_000_000_000L);
		assertThat(w.blockedNanos()).isPositive();
	}

	@Test
	void answersOtherThanTheExpectedStatusAreFailures() {
		status = 503;
		OpenLoad.Window w = OpenLoad.run(base(), PlanRequest.parse("GET /x", 1, 1, 200), 100, 1, 4);
		assertThat(w.requests()).isPositive();
		assertThat(w.ok()).isZero();
		assertThat(w.successRate()).isZero();
	}

}
