package dev.gatewaylab.accesslog;

import java.util.Locale;
import java.util.Map;

/**
 * How a gateway of the lab logs each request: the knob of the "Logback or Log4j2 async?"
 * experiment, one switch for every gateway. Set with {@code gateway.logging.mode} (system
 * property or {@code --gateway.logging.mode=}) or the {@code GATEWAY_LOGGING_MODE}
 * environment variable; no rebuild needed.
 */
public enum LoggingMode {

	/**
	 * The access-log filter writes nothing (request ids are still created and
	 * propagated).
	 */
	OFF,

	/**
	 * Every log call appends on the calling thread (Log4j2 classic context selector, or
	 * Logback's plain appender).
	 */
	SYNC,

	/**
	 * Log calls hand the event to a background thread (Log4j2 all-async loggers, or
	 * Logback's AsyncAppender).
	 */
	ASYNC;

	public static final String PROPERTY = "gateway.logging.mode";

	static final String ENV = "GATEWAY_LOGGING_MODE";

	static final String LOG4J2_SELECTOR_PROPERTY = "log4j2.contextSelector";

	static final String IMMEDIATE_FLUSH_PROPERTY = "gateway.logging.immediateFlush";

	static final String LOG4J2_SYNC_SELECTOR = "org.apache.logging.log4j.core.selector.ClassLoaderContextSelector";

	/**
	 * The mode from, in order: a {@code --gateway.logging.mode=} argument, the system
	 * property, the environment.
	 * @throws IllegalArgumentException naming the accepted values when the value is
	 * unknown
	 */
	public static LoggingMode resolve(String[] args, Map<String, String> env) {
		String value = null;
		for (String arg : args) {
			if (arg.startsWith("--" + PROPERTY + "=")) {
				value = arg.substring(PROPERTY.length() + 3);
			}
		}
		if (value == null) {
			value = System.getProperty(PROPERTY);
		}
		if (value == null) {
			value = env.get(ENV);
		}
		return (value != null) ? of(value) : ASYNC;
	}

	public static LoggingMode of(String value) {
		try {
			return valueOf(value.trim().toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Unknown " + PROPERTY + " '" + value + "': use off, sync or async");
		}
	}

	/**
	 * Log4j2 is configured all-async in {@code log4j2.component.properties};
	 * {@link #SYNC} switches back to the classic selector. A selector given explicitly
	 * with {@code -Dlog4j2.contextSelector} always wins.
	 */
	public void configureLog4j2() {
		if (this == SYNC) {
			if (System.getProperty(LOG4J2_SELECTOR_PROPERTY) == null) {
				System.setProperty(LOG4J2_SELECTOR_PROPERTY, LOG4J2_SYNC_SELECTOR);
			}
			// A synchronous file appender flushes every line (its default); async loggers
			// flush once per batch.
			System.setProperty(IMMEDIATE_FLUSH_PROPERTY, "true");
		}
	}

}
