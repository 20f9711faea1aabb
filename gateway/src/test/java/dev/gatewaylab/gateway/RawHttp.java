package dev.gatewaylab.gateway;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/** Bytes on a raw socket: for requests no HTTP client would send. */
final class RawHttp implements AutoCloseable {

	final Socket socket;

	RawHttp(int port, int readTimeoutMillis) throws IOException {
		this.socket = new Socket("127.0.0.1", port);
		this.socket.setSoTimeout(readTimeoutMillis);
	}

	RawHttp send(String text) throws IOException {
		this.socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
		this.socket.getOutputStream().flush();
		return this;
	}

	/**
	 * Everything until the server closes the connection (or the read timeout: then what
	 * arrived so far).
	 */
	String readAll() throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		InputStream in = this.socket.getInputStream();
		byte[] buffer = new byte[8192];
		try {
			for (int n; (n = in.read(buffer)) >= 0;) {
				out.write(buffer, 0, n);
			}
		}
		catch (SocketTimeoutException ex) {
			out.write("<read timeout>".getBytes(StandardCharsets.ISO_8859_1));
		}
		catch (IOException reset) {
			out.write("<reset>".getBytes(StandardCharsets.ISO_8859_1));
		}
		return out.toString(StandardCharsets.ISO_8859_1);
	}

	static String exchange(int port, String request) throws IOException {
		return exchange(port, request, 10_000);
	}

	static String exchange(int port, String request, int readTimeoutMillis) throws IOException {
		try (RawHttp raw = new RawHttp(port, readTimeoutMillis)) {
			return raw.send(request).readAll();
		}
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

}
