package dev.gatewaylab.runner.engine;

import dev.gatewaylab.runner.jmeter.JMeterHome;
import dev.gatewaylab.runner.remote.RemoteEngine;
import dev.gatewaylab.runner.remote.Rmi;
import dev.gatewaylab.runner.remote.RmiKeystore;
import dev.gatewaylab.runner.remote.RmiSetupException;
import dev.gatewaylab.runner.remote.RmiSockets;
import dev.gatewaylab.runner.run.LabException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import javax.net.ssl.SSLContext;
import org.apache.jmeter.JMeter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A stock JMeter 5.6.3 server ({@code jmeter-server}, i.e. {@code jmeter -s}) from the
 * jars the runner uses, so any machine with this repository and a JDK can be a load
 * engine for {@code --remote}. Runs in the foreground until stopped; {@code ./lab engine}
 * starts it in the background with a pid file (docs/remote.md).
 */
@Command(name = "engine", mixinStandardHelpOptions = true,
		description = "Run a jmeter-server 5.6.3 engine for ./lab bench|sweep --remote (foreground; ./lab engine starts it in the background).")
public final class EngineCommand implements Callable<Integer> {

	@Option(names = "--host", defaultValue = "127.0.0.1",
			description = "Address of this machine the runner reaches the engine at (java.rmi.server.hostname), and the only one the RMI registry and the engine object listen on (default: ${DEFAULT-VALUE}).")
	String host;

	@Option(names = "--port", defaultValue = "1099",
			description = "RMI registry port (server_port; default: ${DEFAULT-VALUE}). Engines on one address need distinct ports.")
	int port;

	@Option(names = "--local-port",
			description = "Port of the engine object itself (server.rmi.localport; default: --port + 1).")
	Integer localPort;

	@Option(names = "--rmi-keystore", paramLabel = "FILE",
			description = "RMI over TLS with this keystore, client certificates required: only a runner with a copy of it connects (default: $LAB_RMI_KEYSTORE, else .lab/rmi-keystore.p12, created with keytool when missing; password from $LAB_RMI_KEYSTORE_PASSWORD, default changeit).")
	Path keystore;

	@Option(names = "--insecure-rmi",
			description = "Plain RMI without TLS or authentication: anyone who reaches the two ports can have the engine run a test plan, and a plan can run code. For a network you trust alone; the runner needs --insecure-rmi too. Prints a warning.")
	boolean insecureRmi;

	private final PrintStream out;

	public EngineCommand(PrintStream out) {
		this.out = out;
	}

	@Override
	public Integer call() throws Exception {
		int local = localPort != null ? localPort : port + 1;
		for (int p : new int[] { port, local }) {
			if (p < 1 || p > 65535) {
				throw new LabException("invalid port " + p, "use --port and --local-port in 1..65535");
			}
		}
		if (local == port) {
			throw new LabException("--local-port equals --port " + port, "use two different ports");
		}
		if (insecureRmi && keystore != null) {
			throw new LabException("--insecure-rmi and --rmi-keystore exclude each other",
					"RMI over TLS with the keystore (drop --insecure-rmi), or plain RMI (drop --rmi-keystore)");
		}
		InetAddress address;
		SSLContext tls;
		try {
			address = Rmi.local(host, "--host " + host);
			if (address.isAnyLocalAddress()) {
				throw new LabException("--host " + host + " is every address of this machine",
						"pass the one address the runner reaches this machine at (ip -brief address)");
			}
			checkFree(address, port, "--port");
			checkFree(address, local, "--local-port");
			tls = insecureRmi ? null : tls(address.isLoopbackAddress());
		}
		catch (RmiSetupException e) {
			throw new LabException(e.problem(), e.fix());
		}
		if (tls == null) {
			out.println("warning: "
					+ Rmi.insecureWarning("on " + address.getHostAddress() + ", ports " + port + " and " + local));
		}
		Path home = JMeterHome.prepareForServer(JMeterHome.defaultLocation());
		Path log = logFile();
		System.setProperty("lab.log", log.toString());
		System.setProperty("jmeter.home", home.toString());
		System.setProperty("java.rmi.server.hostname", host);
		Logger logger = LoggerFactory.getLogger(EngineCommand.class);
		RmiSockets.install(address, tls, refused -> {
			out.println(Instant.now() + " " + refused);
			out.flush();
			logger.warn("{}", refused);
		});
		List<String> args = new ArrayList<>(
				List.of("-s", "-j", log.toString(), "-Jserver_port=" + port, "-Jserver.rmi.localport=" + local));
		Rmi.JMETER_PROPERTIES.forEach((k, v) -> args.add("-J" + k + "=" + v));
		// as jmeter-server; returns once the engine is bound
		new JMeter().start(args.toArray(String[]::new));
		String problem = new RemoteEngine(host + ":" + port, host, port).problem(Duration.ofSeconds(10));
		if (problem != null) {
			throw new LabException("jmeter-server did not start: " + problem, "see " + log);
		}
		out.printf("engine ready: %s:%d (RMI registry), engine object on port %d, both on %s only, %s; JMeter log %s%n",
				host, port, local, address.getHostAddress(),
				tls == null ? "plain RMI (--insecure-rmi)" : "RMI over TLS, client certificates required", log);
		out.flush();
		// serve until stopped (./lab engine stop sends SIGTERM)
		new CountDownLatch(1).await();
		return 0;
	}

	/**
	 * The keystore's TLS context, creating the checkout's keystore when it is missing;
	 * prints what the operator needs (the copy command) as {@code rmi:} lines, and the
	 * warning of plain RMI.
	 */
	private SSLContext tls(boolean loopback) {
		Path named = keystore != null ? keystore : Rmi.keystoreFromEnvironment();
		Path file = named != null ? named : JMeterHome.defaultLocation().resolveSibling(RmiKeystore.FILE_NAME);
		String password = Rmi.password();
		if (named == null && RmiKeystore.create(file, password)) {
			out.println("rmi: created the RMI keystore " + file.toAbsolutePath().normalize() + " (keytool, mode 0600)");
		}
		RmiKeystore ks = RmiKeystore.load(file, password, "pass an existing keystore, or neither --rmi-keystore nor "
				+ Rmi.KEYSTORE_ENV + " to use the checkout's, which the engine creates");
		ks.warnings().forEach(w -> out.println("warning: " + w));
		out.println("rmi: RMI over TLS with " + ks.file() + ": only a runner holding a copy of it can connect");
		out.println("rmi: " + copyHint(ks.file(), host, loopback));
		return ks.context();
	}

	/**
	 * How the runner gets the keystore: nothing to do on this machine, else one command.
	 */
	static String copyHint(Path file, String host, boolean loopback) {
		if (loopback) {
			return "a runner in this checkout uses it as it is (./lab bench --remote " + host + ")";
		}
		return "on the runner's machine, in its checkout: " + RmiKeystore.copyCommand(file, host);
	}

	private Path logFile() throws IOException {
		Path dir = JMeterHome.defaultLocation().getParent().resolve("logs");
		Files.createDirectories(dir);
		return dir.resolve("engine-" + host + "-" + port + ".jmeter.log").toAbsolutePath();
	}

	private static void checkFree(InetAddress address, int port, String option) {
		try (ServerSocket s = new ServerSocket(port, 1, address)) {
			s.setReuseAddress(true);
		}
		catch (IOException e) {
			throw new LabException(option + " " + port + " is in use on this machine (" + e.getMessage() + ")",
					"stop what holds it (ss -ltnp 'sport = :" + port
							+ "'; ./lab engine status) or choose another port");
		}
	}

}
