package dev.gatewaylab.gatewaymvc;

import java.util.Map;

import dev.gatewaylab.accesslog.RuntimeKnob;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RuntimeDefaultsTests {

	@AfterEach
	void clear() {
		for (RuntimeKnob knob : RuntimeDefaults.KNOBS) {
			System.clearProperty(knob.property());
		}
	}

	@Test
	void setsEachDefaultUnlessTheEnvironmentOrACommandLinePropertySaysOtherwise() {
		System.setProperty("AsyncLogger.Retries", "7");

		RuntimeDefaults.apply(Map.of("GATEWAY_MVC_CLIENT_IDLE_TIMEOUT", "4", "GATEWAY_LOG_WAIT_STRATEGY", "default"));

		assertThat(System.getProperty("jdk.httpclient.keepalive.timeout")).isEqualTo("4");
		assertThat(System.getProperty("AsyncLogger.Retries")).isEqualTo("7");
		assertThat(System.getProperty("log4j2.asyncLoggerWaitStrategy")).as("the library's own default").isNull();
		assertThat(System.getProperty("http.maxConnections")).isEqualTo("500");
		assertThat(System.getProperty("log4j2.asyncLoggerRingBufferSize")).isEqualTo("16384");
	}

	@Test
	void theRingBufferOfLog4j2sOwnSizeWhenAskedFor() {
		RuntimeDefaults.apply(Map.of("GATEWAY_LOG_RING_BUFFER_SIZE", "default"));

		assertThat(System.getProperty("log4j2.asyncLoggerRingBufferSize")).isNull();
		assertThat(System.getProperty("log4j2.asyncLoggerWaitStrategy")).isEqualTo("Sleep");
	}

}
