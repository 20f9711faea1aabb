package dev.gatewaylab.testsupport;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/** Records what reaches a logger's appenders, and on which thread it was appended. */
public final class CapturingAppender extends AbstractAppender {

	public record Captured(String message, String thread) {
	}

	private final List<Captured> events = new CopyOnWriteArrayList<>();

	private final List<String> leveled = new CopyOnWriteArrayList<>();

	private final LoggerConfig loggerConfig;

	private CapturingAppender(LoggerConfig loggerConfig) {
		super("capturing", null, null, true, Property.EMPTY_ARRAY);
		this.loggerConfig = loggerConfig;
	}

	public static CapturingAppender attachTo(String loggerName) {
		LoggerContext context = (LoggerContext) LogManager.getContext(false);
		LoggerConfig config = context.getConfiguration().getLoggerConfig(loggerName);
		CapturingAppender appender = new CapturingAppender(config);
		appender.start();
		config.addAppender(appender, null, null);
		context.updateLoggers();
		return appender;
	}

	public void detach() {
		this.loggerConfig.removeAppender(getName());
		((LoggerContext) LogManager.getContext(false)).updateLoggers();
		stop();
	}

	@Override
	public void append(LogEvent event) {
		this.events.add(new Captured(event.getMessage().getFormattedMessage(), Thread.currentThread().getName()));
		this.leveled.add(event.getLevel() + " " + event.getLoggerName() + " " + event.getMessage().getFormattedMessage()
				+ ((event.getThrown() != null) ? " " + event.getThrown() : ""));
	}

	public List<Captured> events() {
		return this.events;
	}

	/** "LEVEL logger message [exception]" of every event. */
	public List<String> leveledMessages() {
		return this.leveled;
	}

	public List<String> messages() {
		return this.events.stream().map(Captured::message).toList();
	}

	/**
	 * Waits (with a deadline) until a message containing {@code text} has arrived;
	 * returns all messages. Async loggers may still deliver an earlier test's lines, so
	 * tests select their own lines instead of counting all.
	 */
	public List<String> awaitMessageContaining(String text) {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (messages().stream().noneMatch((m) -> m.contains(text))) {
			if (System.nanoTime() > deadline) {
				throw new AssertionError(
						"expected a log event containing '" + text + "' within 10 s, got " + messages());
			}
			LockSupport.parkNanos(1_000_000);
		}
		return messages();
	}

	/**
	 * Async loggers append on their own thread: wait (with a deadline) until
	 * {@code count} events arrived.
	 */
	public List<String> awaitMessages(int count) {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (this.events.size() < count) {
			if (System.nanoTime() > deadline) {
				throw new AssertionError("expected " + count + " log events within 10 s, got " + messages());
			}
			LockSupport.parkNanos(1_000_000);
		}
		return messages();
	}

}
