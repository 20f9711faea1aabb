package dev.gatewaylab.runner.remote;

import java.rmi.ConnectException;
import java.rmi.ConnectIOException;
import java.rmi.NotBoundException;
import java.rmi.UnknownHostException;
import java.rmi.registry.LocateRegistry;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One jmeter-server engine as given to {@code --remote}: {@code host[:port]} (RMI
 * registry port, 1099 by default). {@code name} is that string verbatim: JMeter uses it
 * to prefix the engine's thread names and to report its test start and end, so it
 * identifies the engine's samples.
 */
public record RemoteEngine(String name, String host, int port) {

	public static final int DEFAULT_PORT = 1099;

	/**
	 * The name JMeter binds its engine under in the registry (RemoteJMeterEngineImpl).
	 */
	private static final String RMI_NAME = "JMeterEngine";

	private static final ExecutorService PROBES = Executors.newCachedThreadPool(r -> {
		Thread t = new Thread(r, "lab-engine-probe");
		t.setDaemon(true);
		return t;
	});

	/**
	 * Parses {@code host} or {@code host:port}; throws IllegalArgumentException naming
	 * the problem.
	 */
	public static RemoteEngine parse(String hostAndPort) {
		String s = hostAndPort.trim();
		int colon = s.lastIndexOf(':');
		if (s.isEmpty() || s.indexOf(':') != colon || colon == 0) {
			throw new IllegalArgumentException("'" + hostAndPort + "' is not host or host:port");
		}
		if (colon < 0) {
			return new RemoteEngine(s, s, DEFAULT_PORT);
		}
		int port;
		try {
			port = Integer.parseInt(s.substring(colon + 1));
		}
		catch (NumberFormatException e) {
			port = -1;
		}
		if (port < 1 || port > 65535) {
			throw new IllegalArgumentException("'" + hostAndPort + "' has no valid port (1..65535)");
		}
		return new RemoteEngine(s, s.substring(0, colon), port);
	}

	/**
	 * On this machine's loopback (127.0.0.0/8 or localhost): the runner can then be
	 * called back on 127.0.0.1.
	 */
	public boolean loopback() {
		String h = host.toLowerCase(Locale.ROOT);
		return h.equals("localhost") || h.startsWith("127.");
	}

	/**
	 * Asks the engine's RMI registry for the JMeter engine, as the runner does to
	 * configure it; returns null when it is bound there, else why not (one line, no stack
	 * trace). Never waits longer than {@code timeout}.
	 */
	public String problem(Duration timeout) {
		Future<?> lookup = PROBES.submit(() -> {
			// no socket factory of its own: RMI's process-wide one, RmiSockets (TLS, or
			// plain with --insecure-rmi)
			LocateRegistry.getRegistry(host, port).lookup(RMI_NAME);
			return null;
		});
		try {
			lookup.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
			return null;
		}
		catch (TimeoutException e) {
			lookup.cancel(true);
			return "no answer from " + host + ":" + port + " within " + timeout.toSeconds() + " s (a firewall "
					+ "dropping the port, or a wrong address)";
		}
		catch (InterruptedException e) {
			lookup.cancel(true);
			Thread.currentThread().interrupt();
			return "interrupted while checking " + name;
		}
		catch (ExecutionException e) {
			return describe(e.getCause());
		}
	}

	private String describe(Throwable e) {
		if (e instanceof ConnectException) {
			return "nothing listens on " + host + ":" + port + " (connection refused)";
		}
		if (e instanceof UnknownHostException || e.getCause() instanceof java.net.UnknownHostException) {
			return "unknown host " + host;
		}
		if (e instanceof NotBoundException) {
			return "an RMI registry answers on " + host + ":" + port + " but no JMeter engine is bound in it";
		}
		if (e instanceof ConnectIOException && RmiSockets.tlsInstalled()) {
			return "the TLS handshake with " + host + ":" + port + " failed (" + rootMessage(e) + ") — the engine "
					+ "uses another RMI keystore, or plain RMI: give the runner a copy of the engine's keystore "
					+ "(./lab engine prints the command; or --rmi-keystore FILE), or, for an engine started with "
					+ "--insecure-rmi, add --insecure-rmi here too";
		}
		if (e instanceof ConnectIOException) {
			return "the RMI connection to " + host + ":" + port + " failed (" + rootMessage(e) + ") — the engine "
					+ "probably runs RMI over TLS (./lab engine's default) and refused this runner's plain RMI: drop "
					+ "--insecure-rmi and give the runner a copy of the engine's keystore (--rmi-keystore FILE)";
		}
		return e.getClass().getSimpleName() + ": " + rootMessage(e);
	}

	private static String rootMessage(Throwable e) {
		Throwable root = e;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		String m = root.getMessage();
		return (m == null ? root.getClass().getSimpleName() : m).replaceAll("\\s+", " ");
	}
}
