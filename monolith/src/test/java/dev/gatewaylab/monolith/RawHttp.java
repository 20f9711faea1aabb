package dev.gatewaylab.monolith;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/** Bytes on a raw socket (ISO-8859-1): for requests no HTTP client would send. */
public final class RawHttp {

	private RawHttp() {
	}

	/**
	 * Writes the request and reads until the server closes (or the read timeout: then
	 * what arrived so far).
	 */
	public static String exchange(int port, String request, int readTimeoutMillis) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(readTimeoutMillis);
			socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
			socket.getOutputStream().flush();
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			InputStream in = socket.getInputStream();
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
	}

}
