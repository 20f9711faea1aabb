package dev.gatewaylab.runner.remote;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.jmeter.util.JMeterUtils;

/**
 * How the runner talks RMI to remote engines. JMeter 5.x turns RMI over SSL on by default
 * and then needs an {@code rmi_keystore.jks} on both sides; the lab turns it off unless a
 * keystore is given (a lab on a private network; docs/remote.md). {@code hostname} is the
 * address the engines call back to with their samples ({@code java.rmi.server.hostname};
 * 127.0.0.1 when every engine is on loopback), {@code callbackPort} the base P of the
 * runner's fixed callback ports ({@code client.rmi.localport}: JMeter 5.6.3 listens on
 * P+1 and P+2, held for the runner's life by {@link CallbackPorts}; 0 = any free port).
 */
public record Rmi(Path keystore, String hostname, int callbackPort) {

	public static final Rmi DEFAULT = new Rmi(null, null, 0);

	/** Environment variable with the keystore's password (JMeter's default: changeit). */
	public static final String PASSWORD_ENV = "LAB_RMI_KEYSTORE_PASSWORD";

	/**
	 * JMeter properties for RMI, as a jmeter-server or the runner needs them (SSL off, or
	 * the keystore).
	 */
	public static Map<String, String> properties(Path keystore) {
		if (keystore == null) {
			return Map.of("server.rmi.ssl.disable", "true");
		}
		String password = System.getenv().getOrDefault(PASSWORD_ENV, "changeit");
		String file = keystore.toAbsolutePath().toString();
		return Map.of("server.rmi.ssl.disable", "false", "server.rmi.ssl.keystore.file", file,
				"server.rmi.ssl.keystore.password", password, "server.rmi.ssl.truststore.file", file,
				"server.rmi.ssl.truststore.password", password);
	}

	/**
	 * Applies the settings; must run before JMeter's RmiUtils is first used (it reads
	 * them once).
	 */
	public void apply(List<RemoteEngine> engines) {
		properties(keystore).forEach(JMeterUtils::setProperty);
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
		if (hostname != null && !hostname.isBlank()) {
			System.setProperty("java.rmi.server.hostname", hostname);
		}
		else if (!engines.isEmpty() && engines.stream().allMatch(RemoteEngine::loopback)
				&& System.getProperty("java.rmi.server.hostname") == null) {
			System.setProperty("java.rmi.server.hostname", "127.0.0.1");
		}
		if (callbackPort > 0) {
			// after the host name: the ports' endpoint keeps it
			CallbackPorts.holdForRunner(callbackPort);
		}
	}
}
