package dev.gatewaylab.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A client that sends a request head slowly, as an attacker holding connections open
 * would: a first part at once, then the rest one character every interval, until the
 * server answers (or the rest runs out, and the client just waits). What it reports: the
 * final answer, what came after it until the connection ended ({@code ""} for a close,
 * {@link RawHttp#RESET} when the server reset a client still sending), and the
 * milliseconds from the first byte sent to that end.
 *
 * @param response the final answer
 * @param rest what followed the answer until the connection ended
 * @param millis from the first byte sent to the end of the connection
 */
public record SlowHead(RawResponse response, String rest, long millis) {

	/**
	 * Sends {@code start}, then each character of {@code trickle} after a pause of
	 * {@code intervalMillis}, and reads the answer (read timeout
	 * {@code readTimeoutMillis}).
	 */
	public static SlowHead send(int port, String start, String trickle, long intervalMillis, int readTimeoutMillis)
			throws IOException {
		try (RawHttp raw = new RawHttp(port, readTimeoutMillis)) {
			AtomicBoolean answered = new AtomicBoolean();
			long began = System.nanoTime();
			if (!start.isEmpty()) {
				raw.send(start);
			}
			CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> {
				for (int i = 0; i < trickle.length() && pace(intervalMillis) && !answered.get(); i++) {
					try {
						raw.send(trickle.substring(i, i + 1));
					}
					catch (IOException ex) {
						return; // the server closed: the reader sees why
					}
				}
			});
			RawResponse response = raw.readResponse();
			answered.set(true);
			String rest = raw.readAll();
			long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
			sender.join();
			return new SlowHead(response, rest, millis);
		}
	}

	/** Whether the connection ended (closed or reset) rather than the read timing out. */
	public boolean closed() {
		return !this.rest.endsWith(RawHttp.READ_TIMEOUT);
	}

	/**
	 * The client's pace between two characters (not a wait for the server: the reader
	 * waits for that).
	 */
	private static boolean pace(long millis) {
		try {
			Thread.sleep(millis);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * A head for {@code path} on the application port and one for the actuator's health
	 * on the management port, trickled at once, a character every {@code intervalMillis}.
	 * @return the two answers, the application port's first
	 */
	public static List<SlowHead> trickleOnBothPorts(int port, String path, int managementPort, long intervalMillis) {
		CompletableFuture<SlowHead> app = CompletableFuture.supplyAsync(() -> sendUnchecked(port,
				"GET " + path + " HTTP/1.1\r\nHost: localhost\r\n", "X-Slow: abcdefgh", intervalMillis, 15_000));
		CompletableFuture<SlowHead> management = CompletableFuture.supplyAsync(() -> sendUnchecked(managementPort,
				"GET /actuator/health HTTP/1.1\r\nHost: localhost\r\n", "X-Slow: abcdefgh", intervalMillis, 15_000));
		return List.of(app.join(), management.join());
	}

	/** For callers that run several slow clients at once. */
	public static SlowHead sendUnchecked(int port, String start, String trickle, long intervalMillis,
			int readTimeoutMillis) {
		try {
			return send(port, start, trickle, intervalMillis, readTimeoutMillis);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
