package dev.gatewaylab.runner.engine;

import dev.gatewaylab.runner.jmeter.JMeterHome;
import dev.gatewaylab.runner.remote.RemoteEngine;
import dev.gatewaylab.runner.remote.Rmi;
import dev.gatewaylab.runner.run.LabException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.jmeter.JMeter;
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
			description = "Address of this machine the runner reaches the engine at (java.rmi.server.hostname; default: ${DEFAULT-VALUE}).")
	String host;

	@Option(names = "--port", defaultValue = "1099",
			description = "RMI registry port (server_port; default: ${DEFAULT-VALUE}). Engines on one machine need distinct ports.")
	int port;

	@Option(names = "--local-port",
			description = "Port of the engine object itself (server.rmi.localport; default: --port + 1).")
	Integer localPort;

	@Option(names = "--rmi-keystore", paramLabel = "FILE",
			description = "RMI over SSL with this JKS keystore (password from $LAB_RMI_KEYSTORE_PASSWORD, default changeit); the runner needs the same one. Default: RMI without SSL.")
	Path keystore;

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
		checkLocalAddress(host);
		if (keystore != null && !Files.isReadable(keystore)) {
			throw new LabException("--rmi-keystore " + keystore + " is not a readable file", "see docs/remote.md");
		}
		checkFree(port, "--port");
		checkFree(local, "--local-port");
		Path home = JMeterHome.prepareForServer(JMeterHome.defaultLocation());
		Path log = logFile();
		System.setProperty("lab.log", log.toString());
		System.setProperty("jmeter.home", home.toString());
		System.setProperty("java.rmi.server.hostname", host);
		List<String> args = new ArrayList<>(
				List.of("-s", "-j", log.toString(), "-Jserver_port=" + port, "-Jserver.rmi.localport=" + local));
		Rmi.properties(keystore).forEach((k, v) -> args.add("-J" + k + "=" + v));
		// as jmeter-server; returns once the engine is bound
		new JMeter().start(args.toArray(String[]::new));
		String problem = new RemoteEngine(host + ":" + port, host, port).problem(Duration.ofSeconds(10));
		if (problem != null) {
			throw new LabException("jmeter-server did not start: " + problem, "see " + log);
		}
		out.printf("engine ready: %s:%d (RMI registry), engine object on port %d, RMI %s; JMeter log %s%n", host, port,
				local, keystore == null ? "without SSL" : "over SSL", log);
		out.flush();
		// serve until stopped (./lab engine stop sends SIGTERM)
		new CountDownLatch(1).await();
		return 0;
	}

	private Path logFile() throws IOException {
		Path dir = JMeterHome.defaultLocation().getParent().resolve("logs");
		Files.createDirectories(dir);
		return dir.resolve("engine-" + host + "-" + port + ".jmeter.log").toAbsolutePath();
	}

	private static void checkLocalAddress(String host) {
		try {
			InetAddress a = InetAddress.getByName(host);
			if (!a.isLoopbackAddress() && !a.isAnyLocalAddress() && NetworkInterface.getByInetAddress(a) == null) {
				throw new LabException(
						"--host " + host + " (" + a.getHostAddress() + ") is not an address of this " + "machine",
						"pass the address the runner reaches this machine at (ip -brief address)");
			}
		}
		catch (UnknownHostException e) {
			throw new LabException("unknown --host " + host, "pass an IP address of this machine");
		}
		catch (SocketException e) {
			throw new LabException("cannot check --host " + host + ": " + e.getMessage(), null);
		}
	}

	private static void checkFree(int port, String option) {
		try (ServerSocket s = new ServerSocket(port)) {
			s.setReuseAddress(true);
		}
		catch (IOException e) {
			throw new LabException(option + " " + port + " is in use on this machine (" + e.getMessage() + ")",
					"stop what holds it (ss -ltnp 'sport = :" + port
							+ "'; ./lab engine status) or choose another port");
		}
	}

}
