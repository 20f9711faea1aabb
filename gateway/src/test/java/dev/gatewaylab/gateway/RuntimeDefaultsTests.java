package dev.gatewaylab.gateway;

import java.util.HashMap;
import java.util.Map;

import dev.gatewaylab.accesslog.RuntimeKnob;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JVM-wide defaults: measured value unless the environment says otherwise, a -D on
 * the command line wins.
 */
class RuntimeDefaultsTests {

	private final Map<String, String> saved = new HashMap<>();

	@BeforeEach
	void clear() {
		for (RuntimeKnob knob : RuntimeDefaults.KNOBS) {
			this.saved.put(knob.property(), System.getProperty(knob.property()));
			System.clearProperty(knob.property());
		}
	}

	@AfterEach
	void restore() {
		this.saved.forEach((name, value) -> {
			if (value == null) {
				System.clearProperty(name);
			}
			else {
				System.setProperty(name, value);
			}
		});
	}

	@Test
	void acceptsOnADedicatedLoopByDefault() {
		RuntimeDefaults.apply(Map.of());
		assertThat(System.getProperty("reactor.netty.ioSelectCount")).isEqualTo("1");
		assertThat(System.getProperty("log4j2.asyncLoggerWaitStrategy")).isEqualTo("Sleep");
		assertThat(System.getProperty("log4j2.asyncLoggerRingBufferSize")).as("Log4j2's own").isNull();
	}

	@Test
	void theEnvironmentChangesADefault() {
		RuntimeDefaults.apply(Map.of("GATEWAY_IO_SELECT_COUNT", " -1 ", "GATEWAY_NETTY_NATIVE", "false"));
		assertThat(System.getProperty("reactor.netty.ioSelectCount")).isEqualTo("-1");
		assertThat(System.getProperty("reactor.netty.native")).isEqualTo("false");
	}

	@Test
	void aSystemPropertyWinsAndABlankVariableIsTheDefault() {
		System.setProperty("reactor.netty.ioSelectCount", "2");
		RuntimeDefaults.apply(Map.of("GATEWAY_IO_SELECT_COUNT", "-1", "GATEWAY_LOG_WAIT_STRATEGY", "  "));
		assertThat(System.getProperty("reactor.netty.ioSelectCount")).isEqualTo("2");
		assertThat(System.getProperty("log4j2.asyncLoggerWaitStrategy")).isEqualTo("Sleep");
	}

	@Test
	void defaultLeavesTheLibrarysOwnDefault() {
		RuntimeDefaults.apply(Map.of("GATEWAY_IO_WORKER_COUNT", "default", "GATEWAY_LOG_WAIT_STRATEGY", "default"));
		assertThat(System.getProperty("reactor.netty.ioWorkerCount")).isNull();
		assertThat(System.getProperty("log4j2.asyncLoggerWaitStrategy")).isNull();
		assertThat(System.getProperty("reactor.netty.ioSelectCount")).as("the others keep the lab's").isEqualTo("1");
	}

}
