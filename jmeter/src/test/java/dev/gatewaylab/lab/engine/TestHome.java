package dev.gatewaylab.lab.engine;

import java.nio.file.Path;

/** A JMeter home for tests that outlives each test (JMeterHome is initialised once per JVM). */
final class TestHome {

    static final Path PATH = Path.of("target", "test-jmeter-home").toAbsolutePath();

    private TestHome() {
    }
}
