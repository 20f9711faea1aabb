package dev.gatewaylab.runner.remote;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Remote jmeter-server engines of a run ({@code --remote}; empty = the in-process
 * engine), how to talk RMI to them, and whether a run goes on without an engine lost
 * mid-run ({@code --on-engine-loss continue}) or fails.
 */
public record Remote(List<String> hosts, Rmi rmi, boolean continueOnLoss) {

	public static final Remote NONE = new Remote(List.of(), Rmi.PLAIN, false);

	public Remote {
		hosts = List.copyOf(hosts);
	}

	public boolean active() {
		return !hosts.isEmpty();
	}

	/** For run.json's settings. */
	public Map<String, Object> describe() {
		Map<String, Object> m = new LinkedHashMap<>();
		m.put("engines", hosts);
		m.put("rmi_ssl", rmi.keystore() != null); // TLS (false: --insecure-rmi)
		m.put("rmi_hostname", rmi.hostname());
		m.put("rmi_callback_port", rmi.callbackPort());
		m.put("on_engine_loss", continueOnLoss ? "continue" : "fail");
		return m;
	}
}
