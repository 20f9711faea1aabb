package dev.gatewaylab.runner.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.rmi.Remote;
import java.rmi.RemoteException;
import java.rmi.server.UnicastRemoteObject;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * RMI's sockets as the engines and the runner use them: bound to one address, and over
 * TLS only for a peer with the keystore — any other is refused in the handshake, before
 * RMI is handed the connection.
 */
class RmiSocketsTests {

	private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

	private final List<String> refused = new CopyOnWriteArrayList<>();

	/** Something an engine or the runner exports. */
	interface Echo extends Remote {

		String echo(String s) throws RemoteException;

	}

	private static final class EchoImpl implements Echo {

		@Override
		public String echo(String s) {
			return s;
		}

	}

	private static SSLContext tls(java.nio.file.Path keystore) {
		return RmiKeystore.load(keystore, Rmi.password(), "fix").context();
	}

	/** 127.0.0.2 is on the loopback interface (Linux: all of 127/8). */
	private static void assumeSecondLoopbackAddress() {
		try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.2"))) {
			// usable
		}
		catch (IOException e) {
			Assumptions.abort("127.0.0.2 is not an address of this machine");
		}
	}

	private static boolean accepts(String address, int port) throws IOException {
		try (Socket s = new Socket()) {
			s.connect(new InetSocketAddress(address, port), 2000);
			return true;
		}
		catch (ConnectException e) {
			return false;
		}
	}

	@Test
	void plainAndTlsServerSocketsListenOnTheirAddressAlone() throws Exception {
		assumeSecondLoopbackAddress();
		for (SSLContext tls : new SSLContext[] { null, tls(TestKeystores.ours()) }) {
			try (ServerSocket server = new RmiSockets(LOOPBACK, tls, refused::add).createServerSocket(0)) {
				assertThat(server.getInetAddress()).isEqualTo(LOOPBACK);
				assertThat(accepts("127.0.0.1", server.getLocalPort())).as("on its address").isTrue();
				assertThat(accepts("127.0.0.2", server.getLocalPort())).as("another local address: refused").isFalse();
			}
		}
	}

	@Test
	void anObjectIsCalledOverTlsByAPeerWithTheKeystore() throws Exception {
		RmiSockets sockets = new RmiSockets(LOOPBACK, tls(TestKeystores.ours()), refused::add);
		EchoImpl impl = new EchoImpl();
		Echo stub = (Echo) UnicastRemoteObject.exportObject(impl, 0, sockets, sockets);
		try {
			assertThat(stub.echo("over TLS")).isEqualTo("over TLS");
			assertThat(refused).isEmpty();
		}
		finally {
			UnicastRemoteObject.unexportObject(impl, true);
		}
	}

	@Test
	void aPeerWithAnotherKeystoreNoneOrPlainRmiIsRefusedInTheHandshakeAndNeverReachesRmi() throws Exception {
		try (ServerSocket server = new RmiSockets(LOOPBACK, tls(TestKeystores.ours()), refused::add)
			.createServerSocket(0)) {
			int port = server.getLocalPort();
			// what RMI does with the server socket: take the connections accept() hands
			// it
			CompletableFuture<Socket> handedToRmi = CompletableFuture.supplyAsync(() -> {
				try {
					return server.accept();
				}
				catch (IOException e) {
					return null;
				}
			});
			// another lab's keystore: neither side trusts the other's certificate
			assertThatThrownBy(() -> new RmiSockets(null, tls(TestKeystores.another()), s -> {
			}).createSocket("127.0.0.1", port)).isInstanceOf(IOException.class);
			awaitRefusals(1);
			// no keystore: trusts the engine, has no certificate to show
			TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			trust.init(java.security.KeyStore.getInstance(TestKeystores.ours().toFile(), Rmi.password().toCharArray()));
			SSLContext noKey = SSLContext.getInstance("TLS");
			noKey.init(null, trust.getTrustManagers(), null);
			assertThat(closedBeforeAnswering(noKey.getSocketFactory().createSocket("127.0.0.1", port))).isTrue();
			awaitRefusals(2);
			// plain RMI (--insecure-rmi): the JRMP header is no TLS handshake
			assertThat(closedBeforeAnswering(new Socket("127.0.0.1", port))).isTrue();
			awaitRefusals(3);
			assertThat(refused).allSatisfy(r -> assertThat(r).startsWith("refused an RMI connection from 127.0.0.1:")
				.contains(" on 127.0.0.1:" + port + ": TLS handshake failed (")
				.contains("does not hold this lab's RMI keystore"));
			assertThat(handedToRmi).as("RMI was handed none of them").isNotDone();
			// a peer with the keystore is handed over
			try (Socket ok = new RmiSockets(null, tls(TestKeystores.ours()), s -> {
			}).createSocket("127.0.0.1", port)) {
				assertThat(handedToRmi.get(10, TimeUnit.SECONDS)).isNotNull();
			}
		}
	}

	/**
	 * Writes RMI's header (JRMP, stream protocol) and reads: true when no RMI answers —
	 * RMI acknowledges the header with 0x4E (ProtocolAck); a TLS alert or a closed
	 * connection is no answer.
	 */
	private static boolean closedBeforeAnswering(Socket s) throws IOException {
		try (s) {
			s.setSoTimeout(15_000);
			s.getOutputStream().write("JRMI\0\2K".getBytes(StandardCharsets.ISO_8859_1));
			s.getOutputStream().flush();
			InputStream in = s.getInputStream();
			return in.read() != 0x4E;
		}
		catch (IOException e) {
			// the handshake's alert, or the connection reset
			return true;
		}
	}

	private void awaitRefusals(int n) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
		while (refused.size() < n && System.nanoTime() < deadline) {
			Thread.sleep(20);
		}
		assertThat(refused).hasSize(n);
	}

}
