package dev.gatewaylab.accesslog;

import dev.gatewaylab.testsupport.CapturingAppender;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.async.AsyncLoggerContext;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The access log is written by Log4j2's async-logger machinery (the disruptor's thread),
 * not by the caller. In the gateway the caller is an event-loop thread, which must never
 * do file I/O.
 */
class AsyncAccessLogTests {

	@Test
	void loggerContextIsAllAsync() {
		assertThat(LogManager.getContext(false)).isInstanceOf(AsyncLoggerContext.class);
	}

	@Test
	void accessLinesAreAppendedOnTheAsyncLoggerThreadNotTheCallingThread() throws Exception {
		CapturingAppender appender = CapturingAppender.attachTo(AccessLog.LOGGER_NAME);
		try {
			Thread eventLoopStandIn = new Thread(
					() -> LogManager.getLogger(AccessLog.LOGGER_NAME).info("from the event loop"),
					"reactor-http-nio-1");
			eventLoopStandIn.start();
			eventLoopStandIn.join();

			appender.awaitMessages(1);
			CapturingAppender.Captured event = appender.events().get(0);
			assertThat(event.message()).isEqualTo("from the event loop");
			assertThat(event.thread()).isNotEqualTo("reactor-http-nio-1").startsWith("Log4j2-TF-");
		}
		finally {
			appender.detach();
		}
	}

}
