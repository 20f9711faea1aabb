package dev.gatewaylab.testsupport;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * Bytes on a raw socket to {@code 127.0.0.1} (ISO-8859-1 both ways): for requests no HTTP
 * client would send, and to see exactly what a server answered — interim {@code 1xx}
 * answers included. {@link #exchange} writes a request and returns everything until the
 * server closes; {@link RawResponse#parse} reads the final answer out of that text;
 * {@link #readResponse} reads one answer at a time from a kept-alive connection.
 */
public final class RawHttp implements AutoCloseable {

	/** Appended by {@link #readAll} when the read timeout ended the read. */
	public static final String READ_TIMEOUT = "<read timeout>";

	/** Appended by {@link #readAll} when the server reset the connection. */
	public static final String RESET = "<reset>";

	private static final int DEFAULT_READ_TIMEOUT_MILLIS = 10_000;

	/** The connection itself, for tests that time it, half-close it or read it raw. */
	public final Socket socket;

	private final InputStream in;

	public RawHttp(int port, int readTimeoutMillis) throws IOException {
		this.socket = new Socket("127.0.0.1", port);
		this.socket.setSoTimeout(readTimeoutMillis);
		this.in = new BufferedInputStream(this.socket.getInputStream());
	}

	public RawHttp send(String text) throws IOException {
		return send(text.getBytes(StandardCharsets.ISO_8859_1));
	}

	public RawHttp send(byte[] bytes) throws IOException {
		this.socket.getOutputStream().write(bytes);
		this.socket.getOutputStream().flush();
		return this;
	}

	/**
	 * Everything until the server closes the connection; when the read timeout or a reset
	 * ends the read instead, what arrived so far followed by {@link #READ_TIMEOUT} or
	 * {@link #RESET}.
	 */
	public String readAll() throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		byte[] buffer = new byte[8192];
		try {
			for (int n; (n = this.in.read(buffer)) >= 0;) {
				out.write(buffer, 0, n);
			}
		}
		catch (SocketTimeoutException ex) {
			out.write(READ_TIMEOUT.getBytes(StandardCharsets.ISO_8859_1));
		}
		catch (IOException reset) {
			out.write(RESET.getBytes(StandardCharsets.ISO_8859_1));
		}
		return out.toString(StandardCharsets.ISO_8859_1);
	}

	/**
	 * The next final answer on this connection, framed by its {@code Content-Length}, its
	 * chunked encoding or the server's close; interim {@code 1xx} answers before it are
	 * listed in {@link RawResponse#interim()}. Not for the answer to a {@code HEAD}
	 * (headers that describe a body it does not have): use {@link #readAll()} there.
	 * @throws EOFException when the server closes before sending a status line
	 * @throws SocketTimeoutException when the read timeout passes first
	 */
	public RawResponse readResponse() throws IOException {
		RawResponse response = ResponseReader.read(new StreamSource(this.in));
		if (response == null) {
			throw new EOFException("closed by the server before a status line");
		}
		return response;
	}

	/**
	 * Writes the request and reads until the server closes (10 s read timeout).
	 * @see #readAll()
	 */
	public static String exchange(int port, String request) throws IOException {
		return exchange(port, request, DEFAULT_READ_TIMEOUT_MILLIS);
	}

	/**
	 * Writes the request and reads until the server closes.
	 * @see #readAll()
	 */
	public static String exchange(int port, String request, int readTimeoutMillis) throws IOException {
		try (RawHttp raw = new RawHttp(port, readTimeoutMillis)) {
			return raw.send(request).readAll();
		}
	}

	/**
	 * Text fit for an assertion message: CR and LF as {@code \r} and {@code \n}, other
	 * characters outside printable ASCII as {@code \xNN}, cut after {@code max}
	 * characters with an ellipsis.
	 */
	public static String printable(String text, int max) {
		StringBuilder out = new StringBuilder();
		for (int i = 0; i < text.length() && out.length() < max; i++) {
			char c = text.charAt(i);
			if (c == '\r') {
				out.append("\\r");
			}
			else if (c == '\n') {
				out.append("\\n");
			}
			else {
				out.append((c < 0x20 || c > 0x7e) ? String.format("\\x%02x", (int) c) : String.valueOf(c));
			}
		}
		return (out.length() >= max) ? out.substring(0, max) + "…" : out.toString();
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

	/** Bytes from a live connection, as ISO-8859-1 text. */
	private static final class StreamSource implements ResponseReader.Source {

		private final InputStream in;

		StreamSource(InputStream in) {
			this.in = in;
		}

		@Override
		public String readLine() throws IOException {
			StringBuilder line = new StringBuilder();
			for (int b; (b = this.in.read()) >= 0;) {
				line.append((char) b);
				if (b == '\n') {
					return line.toString();
				}
			}
			return (line.length() > 0) ? line.toString() : null;
		}

		@Override
		public String read(long count) throws IOException {
			byte[] bytes = this.in.readNBytes((int) Math.min(count, Integer.MAX_VALUE));
			return new String(bytes, StandardCharsets.ISO_8859_1);
		}

		@Override
		public String readToEnd() throws IOException {
			return new String(this.in.readAllBytes(), StandardCharsets.ISO_8859_1);
		}

		@Override
		public boolean endedCleanly() {
			return true;
		}

	}

}
