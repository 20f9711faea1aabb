package dev.gatewaylab.runner.experiment;

import java.util.Map;

import dev.gatewaylab.runner.experiment.Experiment.Variant;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TuningTests {

	@Test
	void everyCodeLeverHasAFrameworkVariantThatTurnsItOffByItsProperty() {
		assertThat(Tuning.levers()).filteredOn((v) -> v.name().startsWith("framework-"))
			.extracting((v) -> v.env().keySet().iterator().next())
			.contains("GATEWAY_LEVERS_ROUTING_ENABLED", "GATEWAY_LEVERS_ROUTE_LOOKUP_ENABLED",
					"GATEWAY_LEVERS_DISPATCH_ENABLED", "GATEWAY_LEVERS_RETRY_ENABLED",
					"GATEWAY_LEVERS_REQUEST_URL_ENABLED", "GATEWAY_LEVERS_HOP_BY_HOP_HEADERS_ENABLED",
					"GATEWAY_LEVERS_FORWARDED_HEADERS_ENABLED");
	}

	@Test
	void leversOffTurnsBackEveryLeverAndTheJvmButTriesNoSettingAwayFromTheDefaults() {
		Variant off = Tuning.leversOff(Tuning.levers());
		Map<String, String> env = off.env();
		assertThat(env).containsEntry("GATEWAY_LEVERS_ENABLED", "false")
			.containsEntry("GATEWAY_JAVA_OPTS", "-Xmx256m")
			.containsEntry("GATEWAY_IO_WORKER_COUNT", "default")
			.containsEntry("GATEWAY_LOG_WAIT_STRATEGY", "Timeout")
			.containsEntry("GATEWAY_HANDLER_MAPPING_ORDER", "1")
			.doesNotContainKeys("GATEWAY_HTTP2", "GATEWAY_NETTY_NATIVE", "GATEWAY_LOGGING_MODE");
		for (Variant lever : Tuning.levers()) {
			if (!Tuning.NOT_LEVERS.contains(lever.name()) && !lever.name().equals("g1")) {
				assertThat(env).as(lever.name()).containsAllEntriesOf(lever.env());
			}
		}
		assertThat(Tuning.experiment().variants()).extracting(Variant::name).contains("levers-off");
	}

}
