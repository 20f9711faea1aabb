package dev.gatewaylab.accesslog;

import dev.gatewaylab.testsupport.CapturingAppender;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;

/**
 * The access logger's lines, captured in a test without a Spring context.
 */
public final class AccessLogCapture {

	private AccessLogCapture() {
	}

	/**
	 * Sets the access logger to INFO, as log4j2-spring.xml configures it (without a
	 * Spring context Log4j2's default configuration would leave it at ERROR), and
	 * attaches a capturing appender to it.
	 * @return the appender; detach it after the test
	 */
	public static CapturingAppender attach() {
		// The access logger through SLF4J first: its binding starts the logger context
		// and loads its configuration; a level set and an appender attached before that
		// belong to a configuration the start replaces (a first test once waited 10 s
		// for its line).
		AccessLog.isOn();
		Configurator.setLevel(AccessLog.LOGGER_NAME, Level.INFO);
		return CapturingAppender.attachTo(AccessLog.LOGGER_NAME);
	}

}
