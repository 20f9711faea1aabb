package dev.gatewaylab.gateway.server;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The body timer blames the client only for time the gateway was reading: on a channel of
 * its own, with a 200 ms read timeout, on a clock the test moves (the channel's event
 * loop and the timer read the same one).
 */
class BodyTimerTests {

	private static final Duration READ_TIMEOUT = Duration.ofMillis(200);

	private final AtomicInteger timeouts = new AtomicInteger();

	private final MockTicker clock = Ticker.newMockTicker();

	private final EmbeddedChannel channel = EmbeddedChannel.builder()
		.handlers(new ChannelInboundHandlerAdapter())
		.ticker(this.clock)
		.build();

	private final BodyTimer timer = timer();

	private BodyTimer timer() {
		ChannelHandlerContext ctx = this.channel.pipeline().firstContext();
		return new BodyTimer(ctx, READ_TIMEOUT, Duration.ofSeconds(30), this.timeouts::incrementAndGet, this.clock);
	}

	/** Lets more than a read timeout pass, then runs the checks that are due. */
	private void afterReadTimeout() {
		this.clock.advanceMillis(READ_TIMEOUT.toMillis() + 50);
		this.channel.runScheduledPendingTasks();
	}

	@Test
	void aClientThatStopsSendingWhileTheGatewayReadsIsTimedOut() {
		this.timer.start();
		afterReadTimeout();
		assertThat(this.timeouts).hasValue(1);
	}

	@Test
	void bytesThatKeepArrivingKeepTheBodyAlive() {
		this.timer.start();
		for (int i = 0; i < 6; i++) {
			this.clock.advanceMillis(READ_TIMEOUT.toMillis() / 2);
			this.timer.bodyRead();
			this.channel.runScheduledPendingTasks();
		}
		assertThat(this.timeouts).hasValue(0);
	}

	@Test
	void timeTheGatewayWasNotReadingIsNotTheClientsStall() {
		this.timer.start();
		this.channel.config().setAutoRead(false); // nothing downstream wants the body yet
		afterReadTimeout();
		afterReadTimeout();
		assertThat(this.timeouts).hasValue(0);
		// the gateway resumes reading just before a check, the waiting bytes not read yet
		this.channel.config().setAutoRead(true);
		afterReadTimeout();
		assertThat(this.timeouts).hasValue(0);
		// reading, and still nothing comes: a stalled client after all
		afterReadTimeout();
		assertThat(this.timeouts).hasValue(1);
	}

}
