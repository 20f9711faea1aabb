package dev.gatewaylab.runner.remote;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the runner talks RMI to remote engines (docs/remote.md). {@code keystore}: RMI over
 * TLS with it, client certificates required both ways ({@link RmiSockets}); null: plain
 * RMI ({@code --insecure-rmi}). {@code hostname} is the address the engines call back to
 * with their samples ({@code java.rmi.server.hostname}; 127.0.0.1 when every engine is on
 * loopback), and the only address the runner's callback listeners bind to;
 * {@code callbackPort} the base P of the runner's fixed callback ports
 * ({@code client.rmi.localport}: JMeter 5.6.3 listens on P+1 and P+2, held for the
 * runner's life by {@link CallbackPorts}; 0 = any free port).
 */
public record Rmi(Path keystore, String hostname, int callbackPort) {

	/** Plain RMI, Java's callback address: a run without remote engines (and tests). */
	public static final Rmi PLAIN = new Rmi(null, null, 0);

	/**
	 * Environment variable naming the RMI keystore (default: {@code .lab/}
	 * {@value RmiKeystore#FILE_NAME} of the checkout).
	 */
	public static final String KEYSTORE_ENV = "LAB_RMI_KEYSTORE";

	/** Environment variable with the keystore's password (JMeter's default: changeit). */
	public static final String PASSWORD_ENV = "LAB_RMI_KEYSTORE_PASSWORD";

	/**
	 * JMeter's properties for RMI, on the engine and in the runner: JMeter's own RMI SSL
	 * off, so that its objects use {@link RmiSockets}, which does TLS instead.
	 */
	public static final Map<String, String> JMETER_PROPERTIES = Map.of("server.rmi.ssl.disable", "true");

	private static final Logger LOG = LoggerFactory.getLogger(Rmi.class);

	/** The keystore's password: {@value #PASSWORD_ENV}, default changeit. */
	public static String password() {
		return System.getenv().getOrDefault(PASSWORD_ENV, "changeit");
	}

	/** The keystore {@value #KEYSTORE_ENV} names, or null. */
	public static Path keystoreFromEnvironment() {
		String file = System.getenv(KEYSTORE_ENV);
		return file == null || file.isBlank() ? null : Path.of(file);
	}

	/**
	 * The warning printed wherever plain RMI is used ({@code --insecure-rmi}), naming
	 * what it exposes.
	 */
	public static String insecureWarning(String where) {
		return "--insecure-rmi: plain RMI " + where + ", without TLS or authentication — anyone who reaches these "
				+ "ports can send serialized objects to this process" + " and, on an engine, a test plan to run (a "
				+ "plan can hold a script: code runs as the engine's user); use it on a network you trust alone "
				+ "(docs/remote.md)";
	}

	/**
	 * Applies the settings before JMeter's RmiUtils is first used (it reads them once)
	 * and before any RMI export; returns warnings to print. Throws
	 * {@link RmiSetupException} (an unusable keystore or callback address) and
	 * {@link CallbackPorts.Taken}.
	 */
	public List<String> apply(List<RemoteEngine> engines) {
		List<String> warnings = new ArrayList<>();
		JMETER_PROPERTIES.forEach(JMeterUtils::setProperty);
		if (JMeterUtils.getProperty("time_threshold") == null) {
			// JMeter's default sender (StrippedBatch) sends 100 samples
			// or 60 s at a time: at least once a second instead,
			// for the progress line and the live metrics. Not an Asynch mode:
			// it reports the test's end before its queue is drained,
			// and the last samples miss the JTL.
			JMeterUtils.setProperty("time_threshold", "1000");
		}
		if (callbackPort > 0) {
			JMeterUtils.setProperty("client.rmi.localport", Integer.toString(callbackPort));
		}
		InetAddress callback = callbackAddress(engines);
		SSLContext tls = null;
		if (keystore != null) {
			RmiKeystore ks = RmiKeystore.load(keystore, password(), missingFix());
			warnings.addAll(ks.warnings());
			tls = ks.context();
		}
		else {
			warnings.add(insecureWarning(
					"to the engines and on this runner's callback listeners (" + callback.getHostAddress() + ")"));
		}
		try {
			RmiSockets.install(callback, tls, refused -> LOG.warn("{}", refused));
		}
		catch (IOException e) {
			throw new RmiSetupException("cannot set up RMI's sockets: " + e.getMessage(), null);
		}
		if (callbackPort > 0) {
			// after the host name: the ports' endpoint keeps it
			CallbackPorts.holdForRunner(callbackPort);
		}
		return warnings;
	}

	/** What to do when the runner's keystore is missing. */
	public static String missingFix() {
		return "./lab engine creates the keystore on the engine's machine and prints the command that copies it here "
				+ "(into .lab/ of this checkout); or pass --rmi-keystore FILE (or " + KEYSTORE_ENV + "=FILE); or run "
				+ "engines and runner with --insecure-rmi (docs/remote.md)";
	}

	/**
	 * The address the engines call back to and the runner's listeners bind to; sets
	 * {@code java.rmi.server.hostname} to it.
	 */
	InetAddress callbackAddress(List<RemoteEngine> engines) {
		String given = hostname != null && !hostname.isBlank() ? hostname
				: System.getProperty("java.rmi.server.hostname");
		InetAddress a;
		if (given != null) {
			a = local(given, "--rmi-hostname " + given);
		}
		else if (!engines.isEmpty() && engines.stream().allMatch(RemoteEngine::loopback)) {
			given = "127.0.0.1";
			a = InetAddress.getLoopbackAddress();
		}
		else {
			try {
				a = InetAddress.getLocalHost();
			}
			catch (UnknownHostException e) {
				throw new RmiSetupException("this machine's host name does not resolve (" + e.getMessage() + ")",
						"pass --rmi-hostname with an address of this machine the engines can reach");
			}
			if (a.isLoopbackAddress()) {
				throw new RmiSetupException(
						"this machine's host name resolves to " + a.getHostAddress()
								+ ", a loopback address, which engines on other machines cannot call back to",
						"pass --rmi-hostname with an address of this machine the engines can reach (ip -brief address)");
			}
			given = a.getHostAddress();
		}
		System.setProperty("java.rmi.server.hostname", given);
		return a;
	}

	/**
	 * {@code host} resolved, when it is an address of this machine (loopback, or on one
	 * of its interfaces); else RmiSetupException naming {@code what}.
	 */
	public static InetAddress local(String host, String what) {
		InetAddress a;
		try {
			a = InetAddress.getByName(host);
		}
		catch (UnknownHostException e) {
			throw new RmiSetupException("unknown host in " + what, "pass an IP address of this machine");
		}
		try {
			if (!a.isLoopbackAddress() && !a.isAnyLocalAddress() && NetworkInterface.getByInetAddress(a) == null) {
				throw new RmiSetupException(what + " (" + a.getHostAddress() + ") is not an address of this machine",
						"pass an address of this machine the other side can reach (ip -brief address)");
			}
		}
		catch (SocketException e) {
			throw new RmiSetupException("cannot check " + what + ": " + e.getMessage(), null);
		}
		return a;
	}

}
