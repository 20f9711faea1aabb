package dev.gatewaylab.runner.remote;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * An RMI server socket on one address that hands RMI only connections which completed a
 * TLS handshake with a client certificate the keystore trusts. A peer without the
 * keystore is refused in the handshake — before RMI reads a byte of it, so before any
 * object is deserialized — and the refusal is reported. Handshakes run on their own
 * threads, {@value #HANDSHAKE_TIMEOUT_MS} ms at most each, so a slow or silent peer
 * delays no other connection.
 */
final class TlsServerSocket extends ServerSocket {

	static final int HANDSHAKE_TIMEOUT_MS = 10_000;

	private static final int MAX_HANDSHAKES = 16;

	/** Marks the end of the accepted connections. */
	private static final Socket END = new Socket();

	private final ServerSocket tcp;

	private final SSLContext tls;

	private final Consumer<String> refused;

	private final BlockingQueue<Socket> ready = new LinkedBlockingQueue<>();

	private final ThreadPoolExecutor handshakes;

	private volatile boolean closed;

	TlsServerSocket(InetAddress address, int port, SSLContext tls, Consumer<String> refused) throws IOException {
		this.tcp = new ServerSocket(port, 50, address);
		this.tls = tls;
		this.refused = refused;
		String name = "lab-rmi-tls-" + tcp.getLocalPort();
		this.handshakes = new ThreadPoolExecutor(MAX_HANDSHAKES, MAX_HANDSHAKES, 30, TimeUnit.SECONDS,
				new ArrayBlockingQueue<>(64), r -> daemon(r, name + "-handshake"),
				(r, executor) -> ((Handshake) r).reject("too many TLS handshakes at once"));
		this.handshakes.allowCoreThreadTimeOut(true);
		daemon(this::acceptLoop, name + "-accept").start();
	}

	private static Thread daemon(Runnable r, String name) {
		Thread t = new Thread(r, name);
		t.setDaemon(true);
		return t;
	}

	private void acceptLoop() {
		try {
			while (!closed) {
				Socket s;
				try {
					s = tcp.accept();
				}
				catch (IOException e) {
					if (closed || tcp.isClosed()) {
						break;
					}
					// out of file descriptors, say: do not spin
					pause();
					continue;
				}
				handshakes.execute(new Handshake(s));
			}
		}
		finally {
			ready.offer(END);
		}
	}

	private static void pause() {
		try {
			Thread.sleep(100);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	/** One accepted connection's TLS handshake, as the server requiring a certificate. */
	private final class Handshake implements Runnable {

		private final Socket socket;

		Handshake(Socket socket) {
			this.socket = socket;
		}

		@Override
		public void run() {
			try {
				socket.setSoTimeout(HANDSHAKE_TIMEOUT_MS);
				SSLSocket s = (SSLSocket) tls.getSocketFactory().createSocket(socket, null, true);
				s.setNeedClientAuth(true);
				s.startHandshake();
				s.setSoTimeout(0);
				ready.add(s);
				if (closed) {
					drain();
				}
			}
			catch (IOException | RuntimeException e) {
				reject("TLS handshake failed (" + RmiKeystore.reason(e) + ")");
			}
		}

		void reject(String why) {
			quietlyClose(socket);
			if (!closed) {
				refused.accept("refused an RMI connection from " + address(socket.getRemoteSocketAddress()) + " on "
						+ address(tcp.getLocalSocketAddress()) + ": " + why + " — the peer does not hold this lab's "
						+ "RMI keystore (another keystore, none, or plain RMI: --insecure-rmi)");
			}
		}

	}

	private static String address(SocketAddress a) {
		return a instanceof InetSocketAddress i ? i.getAddress().getHostAddress() + ":" + i.getPort()
				: String.valueOf(a);
	}

	private static void quietlyClose(Socket s) {
		try {
			s.close();
		}
		catch (IOException e) {
			// closing: nothing to do
		}
	}

	private void drain() {
		for (Socket s = ready.poll(); s != null; s = ready.poll()) {
			if (s != END) {
				quietlyClose(s);
			}
		}
		ready.offer(END);
	}

	/** The next connection that completed its handshake. */
	@Override
	public Socket accept() throws IOException {
		if (closed) {
			throw new SocketException("Socket is closed");
		}
		Socket s;
		try {
			s = ready.take();
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new SocketException("interrupted while waiting for a connection");
		}
		if (s == END) {
			ready.offer(END);
			throw new SocketException("Socket is closed");
		}
		return s;
	}

	@Override
	public void close() throws IOException {
		if (closed) {
			return;
		}
		closed = true;
		try {
			tcp.close();
		}
		finally {
			handshakes.shutdownNow();
			drain();
			super.close();
		}
	}

	@Override
	public boolean isClosed() {
		return closed;
	}

	@Override
	public boolean isBound() {
		return tcp.isBound();
	}

	@Override
	public int getLocalPort() {
		return tcp.getLocalPort();
	}

	@Override
	public InetAddress getInetAddress() {
		return tcp.getInetAddress();
	}

	@Override
	public SocketAddress getLocalSocketAddress() {
		return tcp.getLocalSocketAddress();
	}

	@Override
	public String toString() {
		return "TlsServerSocket[" + address(tcp.getLocalSocketAddress()) + ", client certificates required]";
	}

}
