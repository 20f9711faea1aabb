package dev.gatewaylab.runner.run;

import dev.gatewaylab.runner.remote.Remote;
import dev.gatewaylab.runner.remote.RemoteEngine;
import dev.gatewaylab.runner.remote.Rmi;
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
			description = "RMI over SSL with this JKS keystore (JMeter's rmi_keystore.jks; password from $LAB_RMI_KEYSTORE_PASSWORD, default changeit); every engine must use the same one. Default: RMI without SSL.")
	Path keystore;

	@Option(names = "--rmi-hostname", paramLabel = "HOST",
			description = "Address of this machine the engines send their samples to (java.rmi.server.hostname; default 127.0.0.1 when every engine is on loopback, else Java's default).")
	String rmiHostname;

	@Option(names = "--rmi-callback-port", paramLabel = "PORT", defaultValue = "0",
			description = "Base of the runner's callback ports for the engines (client.rmi.localport: the runner listens on PORT+1 and PORT+2, held from start to exit; default 0 = any free port). Set it when a firewall sits between engines and runner, below the ephemeral port range (e.g. 21100); not with --rmi-keystore.")
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
		if (keystore != null && !Files.isReadable(keystore)) {
			throw new LabException("--rmi-keystore " + keystore + " is not a readable file",
					"create it as in docs/remote.md (keytool -genkeypair ... -alias rmi) and copy it to every engine");
		}
		if (keystore != null && callbackPort != 0) {
			throw new LabException("--rmi-callback-port cannot be combined with --rmi-keystore",
					"JMeter's SSL socket factories cannot share a fixed port between the runner's listeners; with "
							+ "SSL let the engines reach the runner's ephemeral ports (docs/remote.md)");
		}
		if (hosts.isEmpty() && (keystore != null || rmiHostname != null || callbackPort != 0)) {
			throw new LabException("--rmi-keystore, --rmi-hostname and --rmi-callback-port need --remote",
					"add --remote HOST[:PORT],...");
		}
		return new Remote(hosts, new Rmi(keystore, rmiHostname, callbackPort), onEngineLoss.equals("continue"));
	}

}
