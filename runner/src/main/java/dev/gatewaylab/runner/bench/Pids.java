package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.process.ProcSampler;
import dev.gatewaylab.runner.run.Engines;
import dev.gatewaylab.runner.run.Settings;
import dev.gatewaylab.runner.run.Target;
import java.util.LinkedHashMap;
import java.util.Map;

/** The processes whose CPU a measured repetition reads. */
final class Pids {

	private Pids() {
	}

	/** The lab's own processes (by pid file) plus the local engines and this runner. */
	static Map<String, Long> of(Settings s, Target t) {
		Map<String, Long> pids = new LinkedHashMap<>();
		if (t.local()) {
			for (String svc : s.catalog().services().keySet()) {
				Long pid = ProcSampler.pidFromFile(s.labHome(), svc);
				if (pid != null) {
					pids.put(svc, pid);
				}
			}
		}
		pids.putAll(Engines.localPids(s.labHome(), s.remoteHosts()));
		pids.put("runner", ProcessHandle.current().pid());
		return pids;
	}

}
