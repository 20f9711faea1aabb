package dev.gatewaylab.accesslog;

import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class LoggingModeTests {

	@AfterEach
	void clearSystemProperty() {
		System.clearProperty(LoggingMode.PROPERTY);
	}

	@Test
	void defaultsToAsync() {
		assertThat(LoggingMode.resolve(new String[0], Map.of())).isEqualTo(LoggingMode.ASYNC);
	}

	@Test
	void commandLineArgumentWinsOverSystemPropertyAndEnvironment() {
		System.setProperty(LoggingMode.PROPERTY, "sync");
		String[] args = { "--server.port=0", "--gateway.logging.mode=off" };
		assertThat(LoggingMode.resolve(args, Map.of(LoggingMode.ENV, "async"))).isEqualTo(LoggingMode.OFF);
	}

	@Test
	void systemPropertyWinsOverEnvironment() {
		System.setProperty(LoggingMode.PROPERTY, "sync");
		assertThat(LoggingMode.resolve(new String[0], Map.of(LoggingMode.ENV, "off"))).isEqualTo(LoggingMode.SYNC);
	}

	@Test
	void environmentVariableIsCaseInsensitive() {
		assertThat(LoggingMode.resolve(new String[0], Map.of(LoggingMode.ENV, " Off "))).isEqualTo(LoggingMode.OFF);
	}

	@Test
	void unknownModeNamesTheAcceptedValues() {
		assertThatIllegalArgumentException().isThrownBy(() -> LoggingMode.of("fast"))
			.withMessage("Unknown gateway.logging.mode 'fast': use off, sync or async");
	}

}
