package dev.gatewaylab.runner.jmeter;

import java.nio.file.Path;

/**
 * A JMeter home for tests that outlives each test (JMeterHome is initialised once per
 * JVM).
 */
public final class TestHome {

	public static final Path PATH = Path.of("target", "test-jmeter-home").toAbsolutePath();

	private TestHome() {
	}

}
