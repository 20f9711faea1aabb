package dev.gatewaylab.gatewaymvc;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import org.springframework.util.LinkedCaseInsensitiveMap;

/**
 * An upstream on a random loopback port that speaks HTTP/1.1 on raw sockets, keep-alive,
 * with chunked or sized request bodies — so a test can also make it do what no HTTP
 * server library does on purpose: answer late, or close the connection without an answer.
 * Every request it read is kept in {@link #requests}.
 */
final class StubUpstream implements AutoCloseable {

	/** A request as the upstream received it. */
	record Received(String method, String target, Map<String, String> headers, String body) {
	}

	/** What to do with a request: answer, or drop the connection ({@link #DROP}). */
	record Answer(int status, String contentType, String body, long delayMillis) {

		static Answer json(int status, String body) {
			return new Answer(status, "application/json", body, 0);
		}

		Answer after(long millis) {
			return new Answer(this.status, this.contentType, this.body, millis);
		}

	}

	/** Closes the connection without answering. */
	static final Answer DROP = new Answer(0, null, null, 0);

	final List<Received> requests = new CopyOnWriteArrayList<>();

	private final ServerSocket server;

	private final Function<Received, Answer> answers;

	private final List<Socket> connections = new CopyOnWriteArrayList<>();

	StubUpstream(Function<Received, Answer> answers) throws IOException {
		this.answers = answers;
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		start("stub-upstream-accept", this::accept);
	}

	int port() {
		return this.server.getLocalPort();
	}

	String url() {
		return "http://127.0.0.1:" + port();
	}

	/** The requests whose target starts with {@code prefix}. */
	List<Received> requestsTo(String prefix) {
		return this.requests.stream().filter((r) -> r.target().startsWith(prefix)).toList();
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket socket = this.server.accept();
				this.connections.add(socket);
				start("stub-upstream-connection", () -> serve(socket));
			}
			catch (IOException closed) {
				return;
			}
		}
	}

	private void serve(Socket socket) {
		try (socket) {
			InputStream in = new BufferedInputStream(socket.getInputStream());
			OutputStream out = socket.getOutputStream();
			for (Received request; (request = read(in)) != null;) {
				this.requests.add(request);
				Answer answer = this.answers.apply(request);
				if (answer == DROP) {
					return;
				}
				if (answer.delayMillis() > 0) {
					Thread.sleep(answer.delayMillis());
				}
				byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
				out.write(("HTTP/1.1 " + answer.status() + " X\r\nContent-Type: " + answer.contentType()
						+ "\r\nContent-Length: " + body.length + "\r\n\r\n")
					.getBytes(StandardCharsets.ISO_8859_1));
				out.write(body);
				out.flush();
			}
		}
		catch (IOException | InterruptedException ex) {
			// the gateway hung up, or the stub is closing
		}
	}

	private static Received read(InputStream in) throws IOException {
		String requestLine = line(in);
		if (requestLine == null || requestLine.isEmpty()) {
			return null;
		}
		Map<String, String> headers = new LinkedCaseInsensitiveMap<>();
		for (String header; (header = line(in)) != null && !header.isEmpty();) {
			int colon = header.indexOf(':');
			String name = header.substring(0, colon).trim();
			String value = header.substring(colon + 1).trim();
			headers.merge(name, value, (a, b) -> a + ", " + b);
		}
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		if ("chunked".equalsIgnoreCase(headers.getOrDefault("Transfer-Encoding", ""))) {
			for (int size; (size = Integer.parseInt(line(in).split(";")[0].trim(), 16)) > 0;) {
				body.write(in.readNBytes(size));
				line(in);
			}
			for (String trailer = line(in); trailer != null && !trailer.isEmpty(); trailer = line(in)) {
				// trailers: none expected
			}
		}
		else if (headers.containsKey("Content-Length")) {
			body.write(in.readNBytes(Integer.parseInt(headers.get("Content-Length"))));
		}
		String[] parts = requestLine.split(" ");
		return new Received(parts[0].toUpperCase(Locale.ROOT), parts[1], headers,
				body.toString(StandardCharsets.UTF_8));
	}

	private static String line(InputStream in) throws IOException {
		StringBuilder line = new StringBuilder();
		for (int b; (b = in.read()) != '\n';) {
			if (b < 0) {
				return (line.length() == 0) ? null : line.toString();
			}
			if (b != '\r') {
				line.append((char) b);
			}
		}
		return line.toString();
	}

	private static void start(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		thread.start();
	}

	@Override
	public void close() throws IOException {
		this.server.close();
		for (Socket socket : this.connections) {
			socket.close();
		}
	}

}
