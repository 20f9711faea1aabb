package dev.gatewaylab.runner.run;

import dev.gatewaylab.runner.jmeter.JMeterHome;
import dev.gatewaylab.runner.remote.Remote;
import dev.gatewaylab.runner.remote.RemoteEngine;
import dev.gatewaylab.runner.remote.Rmi;
import dev.gatewaylab.runner.remote.RmiKeystore;
import dev.gatewaylab.runner.remote.RmiSetupException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;

/** Options for remote jmeter-server engines (bench and sweep); docs/remote.md. */
public class RemoteOptions {

	@Option(names = "--remote", split = ",", paramLabel = "HOST[:PORT]",
			description = "Remote jmeter-server 5.6.3 engines (RMI registry port 1099 unless given), as jmeter -R: start each with ./lab engine. Properties are sent as with -G; every engine runs the plan's threads; the JTL aggregates all engines (docs/remote.md).")
	List<String> remote;

	@Option(names = "--rmi-keystore", paramLabel = "FILE",
			description = "The engines' RMI keystore: RMI over TLS with it, client certificates required both ways (default: $LAB_RMI_KEYSTORE, else .lab/rmi-keystore.p12, which ./lab engine creates: copy the engine's one there when it runs on another machine; password from $LAB_RMI_KEYSTORE_PASSWORD, default changeit).")
	Path keystore;

	@Option(names = "--insecure-rmi",
			description = "Plain RMI without TLS or authentication, for engines started with ./lab engine --insecure-rmi (or a stock jmeter-server -Jserver.rmi.ssl.disable=true): whoever reaches the runner's callback ports can send it serialized objects. Prints a warning.")
	boolean insecureRmi;

	@Option(names = "--rmi-hostname", paramLabel = "HOST",
			description = "Address of this machine the engines send their samples to (java.rmi.server.hostname), and the only one the runner's callback listeners bind to (default 127.0.0.1 when every engine is on loopback, else the address this machine's host name resolves to).")
	String rmiHostname;

	@Option(names = "--rmi-callback-port", paramLabel = "PORT", defaultValue = "0",
			description = "Base of the runner's callback ports for the engines (client.rmi.localport: the runner listens on PORT+1 and PORT+2, held from start to exit; default 0 = any free port). Set it when a firewall sits between engines and runner, below the ephemeral port range (e.g. 21100).")
	int callbackPort;

	@Option(names = "--on-engine-loss", paramLabel = "fail|continue", defaultValue = "fail",
			description = "An engine lost mid-run: fail (default) marks the repetition failed and ends the run INCOMPLETE; continue discards that repetition, repeats it on the remaining engines and says so in the report.")
	String onEngineLoss;

	/** The validated remote settings; throws LabException (exit 2) on bad input. */
	public Remote remote() {
		List<String> hosts = remote == null ? List.of()
				: remote.stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
		Set<Integer> ports = new HashSet<>();
		Set<String> names = new HashSet<>();
		for (String h : hosts) {
			RemoteEngine e;
			try {
				e = RemoteEngine.parse(h);
			}
			catch (IllegalArgumentException ex) {
				throw new LabException("invalid --remote host: " + ex.getMessage(),
						"use host or host:port, comma-separated, e.g. --remote 10.0.0.5,10.0.0.6:1199");
			}
			if (!h.matches("[A-Za-z0-9.\\-]+(:[0-9]+)?")) {
				throw new LabException("invalid --remote host '" + h + "'", "use host or host:port, comma-separated");
			}
			if (!names.add(h)) {
				throw new LabException("--remote names " + h + " twice", "list each engine once");
			}
			if (e.loopback() && !ports.add(e.port())) {
				throw new LabException("two --remote engines on this machine share port " + e.port(),
						"engines on one machine need distinct ports: start the second with ./lab engine --port 1199 "
								+ "and pass it as host:1199");
			}
		}
		if (!onEngineLoss.equals("fail") && !onEngineLoss.equals("continue")) {
			throw new LabException("invalid --on-engine-loss '" + onEngineLoss + "'", "use fail or continue");
		}
		if (callbackPort < 0 || callbackPort > 65533) {
			throw new LabException("invalid --rmi-callback-port " + callbackPort,
					"use 1024..65533, or 0 for any free port");
		}
		if (hosts.isEmpty() && (keystore != null || rmiHostname != null || callbackPort != 0 || insecureRmi)) {
			throw new LabException(
					"--rmi-keystore, --rmi-hostname, --rmi-callback-port and --insecure-rmi need --remote",
					"add --remote HOST[:PORT],...");
		}
		if (insecureRmi && keystore != null) {
			throw new LabException("--insecure-rmi and --rmi-keystore exclude each other",
					"RMI over TLS with the keystore (drop --insecure-rmi), or plain RMI (drop --rmi-keystore)");
		}
		Path file = hosts.isEmpty() || insecureRmi ? null : keystoreFile();
		return new Remote(hosts, new Rmi(file, rmiHostname, callbackPort), onEngineLoss.equals("continue"));
	}

	/**
	 * The keystore for RMI over TLS: --rmi-keystore, else $LAB_RMI_KEYSTORE, else the
	 * checkout's. A named one, or the checkout's when it exists, is read and checked now;
	 * a missing default is reported when the run reaches the engines (after the targets'
	 * check).
	 */
	private Path keystoreFile() {
		Path named = keystore != null ? keystore : Rmi.keystoreFromEnvironment();
		Path file = named != null ? named : JMeterHome.defaultLocation().resolveSibling(RmiKeystore.FILE_NAME);
		if (named != null || Files.exists(file)) {
			try {
				RmiKeystore.load(file, Rmi.password(), Rmi.missingFix());
			}
			catch (RmiSetupException e) {
				throw new LabException(e.problem(), e.fix());
			}
		}
		return file;
	}

}
