package dev.gatewaylab.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A server for one connection on a random loopback port: for each request head it reads
 * (up to the empty line) it writes the next scripted answer, byte for byte; after the
 * last one it closes the connection, or keeps it open until {@link #close()}.
 */
final class ScriptedServer implements AutoCloseable {

	final List<String> requests = new CopyOnWriteArrayList<>();

	private final ServerSocket server;

	private final Thread thread;

	private volatile Socket connection;

	ScriptedServer(boolean closeAfterLast, String... answers) throws IOException {
		this.server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
		this.thread = new Thread(() -> serve(closeAfterLast, answers), "scripted-server");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	int port() {
		return this.server.getLocalPort();
	}

	private void serve(boolean closeAfterLast, String[] answers) {
		try {
			this.connection = this.server.accept();
			InputStream in = this.connection.getInputStream();
			OutputStream out = this.connection.getOutputStream();
			for (String answer : answers) {
				String head = readHead(in);
				if (head == null) {
					return;
				}
				this.requests.add(head);
				out.write(answer.getBytes(StandardCharsets.ISO_8859_1));
				out.flush();
			}
			if (closeAfterLast) {
				this.connection.close();
			}
		}
		catch (IOException ex) {
			// the test closed the server
		}
	}

	private static String readHead(InputStream in) throws IOException {
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		for (int b; (b = in.read()) >= 0;) {
			head.write(b);
			if (head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
				return head.toString(StandardCharsets.ISO_8859_1);
			}
		}
		return null;
	}

	@Override
	public void close() throws IOException {
		this.server.close();
		Socket socket = this.connection;
		if (socket != null) {
			socket.close();
		}
	}

}
