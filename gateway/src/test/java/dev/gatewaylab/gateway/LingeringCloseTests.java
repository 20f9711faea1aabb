package dev.gatewaylab.gateway;

import dev.gatewaylab.testsupport.RawHttp;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Early answers reach a client that is still sending: after a 413 mid-body (or a 408) the
 * gateway shuts its output and reads and drops what still comes, for a bounded time and
 * size, before it closes. Closing at once made the kernel reset the connection, and the
 * client lost the answer. Raw sockets that stream a chunked body while they read, as curl
 * does.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "LOG_PATH=target/logs", "GATEWAY_IDLE_TIMEOUT=1s",
				"GATEWAY_READ_TIMEOUT=500ms", "GATEWAY_MAX_BODY_SIZE=1KB", "STUDY_SERVICE_RESPONSE_TIMEOUT_MS=3000" })
class LingeringCloseTests extends RunningGateway {

	static final String CHUNKED_POST = "POST /api/studies HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
			+ "Transfer-Encoding: chunked\r\n";

	static final Executor readers = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "raw-http-reader");
		thread.setDaemon(true);
		return thread;
	});

	/** The lingering bounds' defaults (gateway.server.linger-time, linger-size). */
	static final Duration LINGER_TIME = Duration.ofSeconds(2);

	static final int LINGER_BYTES = 4 * 1024 * 1024;

	@Test
	void aChunkedUploadOverTheLimitGets413WhileStillSending() throws Exception {
		try (RawHttp raw = new RawHttp(this.port, 10_000)) {
			raw.send(CHUNKED_POST + "\r\n");
			CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> readAll(raw), readers);
			Upload upload = stream(raw, 5_000_000, 0, answer);
			assertThat(answer.get(10, TimeUnit.SECONDS)).startsWith("HTTP/1.1 413 ")
				.contains("application/problem+json")
				.contains("\"status\":413")
				.doesNotContain("<reset>");
			assertThat(upload.failure).as("the upload was never cut off").isNull();
		}
	}

	@Test
	void withExpectContinueTheClientGets100ContinueThenThe413() throws Exception {
		// curl sends large and chunked bodies this way: it got "100 Continue", then a
		// reset
		try (RawHttp raw = new RawHttp(this.port, 10_000)) {
			raw.send(CHUNKED_POST + "Expect: 100-continue\r\n\r\n");
			assertThat(readInterim(raw)).startsWith("HTTP/1.1 100 ");
			CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> readAll(raw), readers);
			Upload upload = stream(raw, 5_000_000, 0, answer);
			assertThat(answer.get(10, TimeUnit.SECONDS)).startsWith("HTTP/1.1 413 ")
				.contains("application/problem+json")
				.doesNotContain("<reset>");
			assertThat(upload.failure).isNull();
		}
	}

	@Test
	void aStalledBodyAfter100ContinueGets408() throws Exception {
		// the 100 Continue counted as the answer having begun: the connection was closed
		// with nothing else
		long start = System.nanoTime();
		try (RawHttp raw = new RawHttp(this.port, 10_000)) {
			raw.send("POST /api/studies HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
					+ "Content-Length: 100\r\nExpect: 100-continue\r\n\r\n");
			assertThat(readInterim(raw)).startsWith("HTTP/1.1 100 ");
			raw.send("{\"ti");
			assertThat(raw.readAll()).startsWith("HTTP/1.1 408 ")
				.contains("application/problem+json")
				.contains("\"status\":408");
		}
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(2500));
	}

	@Test
	void aBodySentDespiteA413UpFrontIsDrainedAndTheAnswerArrives() throws Exception {
		// a client that writes its whole body before it reads (no Expect)
		String body = "{\"title\":\"" + "x".repeat(1_000_000) + "\"}";
		try (RawHttp raw = new RawHttp(this.port, 10_000)) {
			raw.send("POST /api/studies HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: "
					+ body.length() + "\r\n\r\n" + body);
			assertThat(raw.readAll()).startsWith("HTTP/1.1 413 ").doesNotContain("<reset>");
		}
	}

	@Test
	void aClientThatNeverStopsSendingIsClosedAfterTheTimeBound() throws Exception {
		try (RawHttp raw = new RawHttp(this.port, 10_000)) {
			raw.send(CHUNKED_POST + "\r\n");
			CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> readAll(raw), readers);
			// 8 KiB every 10 ms: far below the size bound within the time bound
			Upload upload = stream(raw, Long.MAX_VALUE, 10, null);
			assertThat(upload.failure).as("closed by the gateway").isNotNull();
			assertThat(answer.get(10, TimeUnit.SECONDS)).startsWith("HTTP/1.1 413 ");
			assertThat(upload.sent).isLessThan(LINGER_BYTES);
			// the refusal comes with the first chunk: from then on the gateway reads for
			// the lingering time, not less, not much more
			assertThat(Duration.ofNanos(upload.nanos)).isBetween(LINGER_TIME.minusMillis(500),
					LINGER_TIME.plusSeconds(3));
		}
	}

	@Test
	void aClientThatNeverStopsSendingIsClosedAfterTheSizeBound() throws Exception {
		long start = System.nanoTime();
		try (RawHttp raw = new RawHttp(this.port, 10_000)) {
			raw.send(CHUNKED_POST + "\r\n");
			Upload upload = stream(raw, Long.MAX_VALUE, 0, null);
			assertThat(upload.failure).as("closed by the gateway").isNotNull();
			assertThat(upload.sent).isGreaterThan(LINGER_BYTES);
		}
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(LINGER_TIME.plusSeconds(3));
	}

	/** What a streaming client managed to send, and how it ended. */
	record Upload(long sent, long nanos, IOException failure) {
	}

	/**
	 * Sends 8 KiB chunks until {@code max} bytes, until {@code stopWhen} is done (the
	 * answer was read to its end), or until a write fails; then the last chunk if the
	 * body is complete.
	 */
	static Upload stream(RawHttp raw, long max, long pauseMillis, CompletableFuture<?> stopWhen) {
		byte[] chunk = ("2000\r\n" + "a".repeat(8192) + "\r\n").getBytes(StandardCharsets.US_ASCII);
		long start = System.nanoTime();
		long sent = 0;
		try {
			OutputStream out = raw.socket.getOutputStream();
			while (sent < max && (stopWhen == null || !stopWhen.isDone())) {
				out.write(chunk);
				sent += 8192;
				if (pauseMillis > 0) {
					LockSupport.parkNanos(Duration.ofMillis(pauseMillis).toNanos());
				}
			}
			if (sent >= max) {
				out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
			}
			return new Upload(sent, System.nanoTime() - start, null);
		}
		catch (IOException ex) {
			return new Upload(sent, System.nanoTime() - start, ex);
		}
	}

	/** An interim response (100 Continue), up to its empty line. */
	static String readInterim(RawHttp raw) throws IOException {
		InputStream in = raw.socket.getInputStream();
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
			int b = in.read();
			if (b < 0) {
				break;
			}
			head.write(b);
		}
		return head.toString(StandardCharsets.ISO_8859_1);
	}

	static String readAll(RawHttp raw) {
		try {
			return raw.readAll();
		}
		catch (IOException ex) {
			return "<" + ex + ">";
		}
	}

}
