package dev.gatewaylab.runner.run;

import dev.gatewaylab.runner.jmeter.JMeterHome;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An open-model run ends once its last arrival has been answered: the rule alone, and the
 * real embedded engine running the lab's own plan against a server that answers after 300
 * ms.
 */
class OpenModelEndTests {

	private static final long DELAY_MS = 300;

	HttpServer server;

	ExecutorService executor;

	final AtomicLong hits = new AtomicLong();

	@BeforeEach
	void startServer() throws Exception {
		server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
		executor = Executors.newCachedThreadPool();
		server.setExecutor(executor);
		server.createContext("/api/studies/", exchange -> {
			hits.incrementAndGet();
			try {
				Thread.sleep(DELAY_MS);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
			String path = exchange.getRequestURI().getPath();
			String id = path.substring(path.lastIndexOf('/') + 1);
			byte[] body = ("{\"id\":" + id + ",\"title\":\"t\"}").getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		server.start();
	}

	@AfterEach
	void stopServer() {
		server.stop(0);
		executor.shutdownNow();
	}

	@Test
	void waitsForTheArrivalsAndForEveryThreadToFinish() {
		OpenModelEnd end = new OpenModelEnd(2);
		assertThat(end.done(10_000, 0)).as("no sample yet: the schedule may not have started").isFalse();
		end.sampleStarted(1_500);
		end.sampleStarted(1_000);
		end.sampleStarted(1_200);
		long arrivalsOver = 1_000 + 2_000 + OpenModelEnd.MARGIN_MS;
		assertThat(end.done(arrivalsOver - 1, 0)).as("arrivals may still come").isFalse();
		assertThat(end.done(arrivalsOver, 1)).as("a request still in flight").isFalse();
		assertThat(end.done(arrivalsOver, 0)).isTrue();
	}

	@Test
	void theRunEndsWhenTheLastArrivalIsAnsweredNotAfterTheTail() throws Exception {
		// once per JVM: a home that outlives this test, for the tests that run after it
		JMeterHome.init(Path.of("target/jmeter-home").toAbsolutePath());
		// The run that waits out the tail first: it also warms the embedded JMeter, whose
		// first run in a JVM is the slowest.
		Run tail = run(null);
		assertThat(tail.samples).isEqualTo(hits.get()).isEqualTo(tail.ok);
		assertThat(tail.millis).as("without it the run waits out the schedule's tail").isGreaterThanOrEqualTo(4_000);

		hits.set(0);
		Run early = run(new OpenModelEnd(1));
		assertThat(early.samples).as("every request the server saw is a recorded sample").isEqualTo(hits.get());
		assertThat(early.samples).isPositive().isEqualTo(early.ok);
		assertThat(early.lastEndMs).as("the last answer came before the run ended").isLessThanOrEqualTo(early.endMs);
		// 1 s of arrivals (after 200 ms), the last answered 300 ms later, where the tail
		// waits 3 s more: compared with the run that waits, so that a busy machine
		// slowing
		// both does not decide it
		assertThat(early.millis).as("ends before the tail: %d ms against %d", early.millis, tail.millis)
			.isLessThanOrEqualTo(tail.millis - 1_500);
	}

	private Run run(OpenModelEnd end) throws Exception {
		Map<String, String> props = new HashMap<>(
				Map.of("host", "127.0.0.1", "port", Integer.toString(server.getAddress().getPort()), "protocol", "http",
						"rate", "40", "duration", "1", "openTail", "3000", "idMax", "20", "responseTimeout", "10000"));
		Run r = new Run();
		long t0 = System.nanoTime();
		new PlanRunner(List.of()).run(Path.of("../jmeter/plans/direct.jmx"), props, null, s -> {
			synchronized (r) {
				r.samples++;
				r.ok += s.isSuccessful() ? 1 : 0;
				r.lastEndMs = Math.max(r.lastEndMs, s.getEndTime());
			}
		}, Duration.ofSeconds(30), end);
		r.millis = (System.nanoTime() - t0) / 1_000_000;
		r.endMs = System.currentTimeMillis();
		return r;
	}

	static final class Run {

		long samples;

		long ok;

		long lastEndMs;

		long endMs;

		long millis;

	}

}
