package dev.gatewaylab.floor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.Map;

import org.junit.jupiter.api.Test;

class FloorSettingsTests {

	@Test
	void defaultsAreTheLabsPortsAndTheGatewaysEventLoops() {
		FloorSettings s = FloorSettings.from(Map.of());
		assertThat(s.port()).isEqualTo(8083);
		assertThat(s.address()).as("every interface").isEmpty();
		assertThat(s.managementPort()).isEqualTo(9083);
		assertThat(s.managementAddress()).isEqualTo("127.0.0.1");
		assertThat(s.upstream()).hasToString("http://localhost:8081");
		assertThat(s.ioWorkerCount()).isEqualTo(Math.max(1, Runtime.getRuntime().availableProcessors() / 2));
		assertThat(s.ioSelectCount()).isEqualTo(1);
		assertThat(s.systemProperties()).containsEntry("reactor.netty.ioSelectCount", "1")
			.containsEntry("io.netty.leakDetection.level", "disabled");
	}

	@Test
	void followsTheGatewaysEventLoopSettingsUnlessSetForTheFloor() {
		FloorSettings s = FloorSettings.from(Map.of("GATEWAY_IO_WORKER_COUNT", "3", "GATEWAY_IO_SELECT_COUNT", "-1"));
		assertThat(s.ioWorkerCount()).isEqualTo(3);
		assertThat(s.ioSelectCount()).isEqualTo(-1);
		s = FloorSettings.from(Map.of("GATEWAY_IO_WORKER_COUNT", "3", "FLOOR_IO_WORKER_COUNT", " 2 "));
		assertThat(s.ioWorkerCount()).isEqualTo(2);
		assertThat(s.systemProperties()).containsEntry("reactor.netty.ioWorkerCount", "2");
	}

	@Test
	void portsAndUpstreamFromTheEnvironment() {
		FloorSettings s = FloorSettings.from(Map.of("PORT", "18083", "MANAGEMENT_PORT", "0", "STUDY_SERVICE_URL",
				"http://study-service:8081", "MANAGEMENT_ADDRESS", "0.0.0.0", "FLOOR_ADDRESS", " 127.0.0.1 "));
		assertThat(s.port()).isEqualTo(18083);
		assertThat(s.address()).isEqualTo("127.0.0.1");
		assertThat(s.managementPort()).isZero();
		assertThat(s.upstream().getHost()).isEqualTo("study-service");
		assertThat(s.managementAddress()).isEqualTo("0.0.0.0");
	}

	@Test
	void aBadValueIsNamedWithTheFix() {
		assertThatIllegalArgumentException().isThrownBy(() -> FloorSettings.from(Map.of("PORT", "eighty")))
			.withMessage("PORT='eighty' is not a number");
		assertThatIllegalArgumentException().isThrownBy(() -> FloorSettings.from(Map.of("MANAGEMENT_PORT", "70000")))
			.withMessageContaining("MANAGEMENT_PORT=70000 is not a port");
		assertThatIllegalArgumentException().isThrownBy(() -> FloorSettings.from(Map.of("FLOOR_IO_WORKER_COUNT", "0")))
			.withMessageContaining("FLOOR_IO_WORKER_COUNT=0 is out of range");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> FloorSettings.from(Map.of("GATEWAY_IO_SELECT_COUNT", "0")))
			.withMessageContaining("or -1");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> FloorSettings.from(Map.of("STUDY_SERVICE_URL", "localhost:8081")))
			.withMessageContaining("e.g. http://localhost:8081");
	}

}
