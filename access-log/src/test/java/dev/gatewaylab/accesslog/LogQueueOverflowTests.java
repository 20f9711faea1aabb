package dev.gatewaylab.accesslog;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.async.AsyncLoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * RELIABILITY item 12: when the async logger's ring buffer is full (a stalled disk, here
 * an appender that takes 1 ms per event), the caller — an event loop in the gateway —
 * never waits: events are dropped and counted.
 */
class LogQueueOverflowTests {

	@Test
	void aFullQueueDropsAndCountsInsteadOfBlockingTheCaller() {
		LoggerContext context = (LoggerContext) LogManager.getContext(false);
		assumeThat(context).as("all-async loggers (log4j2.component.properties)")
			.isInstanceOf(AsyncLoggerContext.class);
		Configuration config = context.getConfiguration();
		SlowAppender slow = new SlowAppender();
		slow.start();
		LoggerConfig flood = new LoggerConfig("dev.gatewaylab.flood", Level.INFO, false);
		flood.addAppender(slow, null, null);
		config.addLogger(flood.getName(), flood);
		context.updateLoggers();
		try {
			Logger logger = LogManager.getLogger(flood.getName());
			long droppedBefore = CountingDiscardPolicy.dropped();
			int events = 600_000; // more than the ring buffer holds (256 Ki slots at
									// most)
			long start = System.nanoTime();
			for (int i = 0; i < events; i++) {
				logger.info("flood {}", i);
			}
			Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
			long dropped = CountingDiscardPolicy.dropped() - droppedBefore;
			assertThat(dropped).as("dropped and counted").isPositive();
			// A blocking caller would wait 1 ms for each event beyond the buffer:
			// minutes. Dropping takes a second or two.
			assertThat(elapsed).isLessThan(Duration.ofSeconds(20));
			assertThat(slow.appended.get() + dropped).isLessThanOrEqualTo(events);
		}
		finally {
			slow.fast = true; // let the backlog drain at once
			config.removeLogger(flood.getName());
			context.updateLoggers();
		}
	}

	/** Takes 1 ms per event until told to hurry. */
	static final class SlowAppender extends AbstractAppender {

		final AtomicLong appended = new AtomicLong();

		volatile boolean fast;

		SlowAppender() {
			super("slow", null, null, true, Property.EMPTY_ARRAY);
		}

		@Override
		public void append(LogEvent event) {
			this.appended.incrementAndGet();
			if (!this.fast) {
				LockSupport.parkNanos(1_000_000);
			}
		}

	}

}
