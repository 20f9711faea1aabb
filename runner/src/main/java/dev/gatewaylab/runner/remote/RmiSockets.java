package dev.gatewaylab.runner.remote;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.rmi.server.RMISocketFactory;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * The sockets of every RMI object in this process: server sockets bound to one address
 * (the engine's {@code --host}, the runner's callback address), and with a keystore TLS
 * in both directions, client certificates required ({@link TlsServerSocket}). Installed
 * as Java RMI's process-wide socket factory ({@link #install}): JMeter exports its
 * registry, engine and callback objects without factories of their own when its own RMI
 * SSL is off ({@code server.rmi.ssl.disable=true}, {@link Rmi#JMETER_PROPERTIES}), and
 * RMI then uses this one on both sides. JMeter's own SSL factories are not used: plain,
 * they bind to every address, and their client factory travels inside every remote
 * reference with the keystore's path and password, which the other machine would have to
 * share.
 */
public final class RmiSockets extends RMISocketFactory {

	private static final RmiSockets INSTALLED = new RmiSockets(null, null, s -> {
	});

	private static boolean installed;

	private volatile InetAddress address;

	private volatile SSLContext tls;

	private volatile Consumer<String> refused;

	/**
	 * Server sockets on {@code address}; with {@code tls} (null: plain RMI) TLS both
	 * ways, every refused handshake reported to {@code refused}.
	 */
	public RmiSockets(InetAddress address, SSLContext tls, Consumer<String> refused) {
		this.address = address;
		this.tls = tls;
		this.refused = refused;
	}

	/**
	 * Makes every RMI export and connection of this process use these settings; call
	 * before the first export. Again later: the settings are replaced for what is
	 * exported and connected from then on (tests).
	 */
	public static synchronized void install(InetAddress address, SSLContext tls, Consumer<String> refused)
			throws IOException {
		INSTALLED.address = address;
		INSTALLED.tls = tls;
		INSTALLED.refused = refused;
		if (!installed) {
			RMISocketFactory.setSocketFactory(INSTALLED);
			installed = true;
		}
	}

	/**
	 * Whether this process talks RMI over TLS (for the messages of a failed connection).
	 */
	static boolean tlsInstalled() {
		return installed && INSTALLED.tls != null;
	}

	@Override
	public Socket createSocket(String host, int port) throws IOException {
		SSLContext context = tls;
		if (context == null) {
			return new Socket(host, port);
		}
		SSLSocket s = (SSLSocket) context.getSocketFactory().createSocket(host, port);
		try {
			s.setSoTimeout(TlsServerSocket.HANDSHAKE_TIMEOUT_MS);
			s.startHandshake();
			s.setSoTimeout(0);
			return s;
		}
		catch (IOException | RuntimeException e) {
			s.close();
			throw e;
		}
	}

	@Override
	public ServerSocket createServerSocket(int port) throws IOException {
		InetAddress bind = address;
		SSLContext context = tls;
		if (bind == null && context == null) {
			return new ServerSocket(port);
		}
		if (bind == null) {
			throw new SocketException("RMI over TLS needs the address to listen on");
		}
		return context == null ? new ServerSocket(port, 50, bind) : new TlsServerSocket(bind, port, context, refused);
	}

}
