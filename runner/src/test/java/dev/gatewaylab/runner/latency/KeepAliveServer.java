package dev.gatewaylab.runner.latency;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A small HTTP/1.1 keep-alive server for the latency generator's tests: a thread per
 * connection, TCP_NODELAY (the JDK's own server waits for delayed ACKs unless a JVM-wide
 * flag is set before its first use), a fixed status and delay, the paths it saw and when
 * requests came.
 */
final class KeepAliveServer implements AutoCloseable {

	final Set<String> paths = ConcurrentHashMap.newKeySet();

	/** System.nanoTime() at which each request line arrived. */
	final java.util.Queue<Long> arrivals = new java.util.concurrent.ConcurrentLinkedQueue<>();

	volatile int status = 200;

	volatile long delayMs;

	private final ServerSocket socket;

	private final ExecutorService pool = Executors.newCachedThreadPool();

	KeepAliveServer() throws IOException {
		socket = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
		pool.submit(this::accept);
	}

	URI base() {
		return URI.create("http://127.0.0.1:" + socket.getLocalPort());
	}

	private void accept() {
		while (!socket.isClosed()) {
			try {
				Socket s = socket.accept();
				s.setTcpNoDelay(true);
				pool.submit(() -> serve(s));
			}
			catch (IOException e) {
				return;
			}
		}
	}

	private void serve(Socket s) {
		try (s) {
			BufferedReader in = new BufferedReader(
					new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
			OutputStream out = s.getOutputStream();
			String line;
			while ((line = in.readLine()) != null) {
				if (line.isEmpty()) {
					continue;
				}
				arrivals.add(System.nanoTime());
				paths.add(line.split(" ")[1]);
				while ((line = in.readLine()) != null && !line.isEmpty()) {
					// headers: nothing to read from them
				}
				if (delayMs > 0) {
					Thread.sleep(delayMs);
				}
				String body = "{\"id\":1}";
				out.write(("HTTP/1.1 " + status + " X\r\nContent-Type: application/json\r\nContent-Length: "
						+ body.length() + "\r\n\r\n" + body)
					.getBytes(StandardCharsets.US_ASCII));
				out.flush();
			}
		}
		catch (IOException | InterruptedException e) {
			// the client went away
		}
	}

	@Override
	public void close() throws IOException {
		socket.close();
		pool.shutdownNow();
	}

}
