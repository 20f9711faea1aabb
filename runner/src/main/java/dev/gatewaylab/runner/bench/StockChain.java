package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.answer.CpuChains;
import dev.gatewaylab.runner.process.ServiceInfo;
import dev.gatewaylab.runner.result.CpuChain;
import dev.gatewaylab.runner.result.TargetResult;
import dev.gatewaylab.runner.run.Settings;
import java.net.URI;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stock → ours → floor for a run that measured stock and the gateway: their CPU per
 * request ({@link CpuChains}), with the features each says it runs on its management
 * port's {@code /actuator/info}, read at the end of the run.
 */
final class StockChain {

	private StockChain() {
	}

	static CpuChain of(Settings s, Collection<TargetRun> runs, List<TargetResult> results,
			Map<String, String> services) {
		Map<String, URI> managementPorts = new LinkedHashMap<>();
		for (TargetRun run : runs) {
			String service = run.target().service();
			managementPorts.putIfAbsent(service, URI.create(run.target().protocol() + "://" + run.target().host() + ":"
					+ s.catalog().service(service).managementPort()));
		}
		return CpuChains.of(results, services, ServiceInfo.features(managementPorts, List.of("gateway", "stock")));
	}

}
