package dev.gatewaylab.gateway.denylist;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import dev.gatewaylab.denylist.DenyList;

/**
 * {@code /actuator/denylist} on the management port, when exposed
 * ({@code management.endpoints.web.exposure.include}, e.g.
 * {@code MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE=health,info,prometheus,denylist}; not
 * by default): the list in use, and a bypass — {@code POST {"enforced": false}} lets
 * every client through while the rules stay loaded, {@code {"enforced": true}} denies
 * again. An operator's emergency switch, logged at WARN and visible as
 * {@code gateway_deny_list_enforced}; the lab's deny-list experiment uses it to measure
 * the filter's cost in one JVM.
 */
@Endpoint(id = "denylist")
class DenyListEndpoint {

	private final ReloadingDenyList denyList;

	DenyListEndpoint(ReloadingDenyList denyList) {
		this.denyList = denyList;
	}

	@ReadOperation
	Map<String, Object> state() {
		DenyList list = this.denyList.current();
		Map<String, Object> state = new LinkedHashMap<>();
		state.put("enforced", this.denyList.enforced());
		state.put("file", this.denyList.file().toString());
		state.put("rules", list.rules());
		state.put("intervals", list.intervals());
		state.put("skippedLines", list.skippedLines());
		state.put("memoryBytes", list.memoryBytes());
		state.put("compiledFile", String.valueOf(list.file()));
		state.put("loadMillis", list.loadNanos() / 1_000_000);
		state.put("lastLoadSucceeded", this.denyList.lastLoadSucceeded());
		return state;
	}

	@WriteOperation
	Map<String, Object> enforce(boolean enforced) {
		this.denyList.enforce(enforced);
		return state();
	}

}
