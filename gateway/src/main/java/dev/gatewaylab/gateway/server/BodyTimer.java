package dev.gatewaylab.gateway.server;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.Ticker;

/**
 * Times the request body a connection is receiving: a client that stops sending its own
 * body for the read timeout, or takes longer than the request timeout for all of it, is
 * reported to {@code onTimeout} (Reactor Netty's own read/request timeouts close the
 * connection without an answer; left alone, the upstream's response timeout made it a 504
 * counted as a server error).
 * <p>
 * Only time the gateway spends reading counts against the client. Reactor Netty turns
 * auto-read off while nothing downstream wants the body — before the upstream call has a
 * connection, or while the upstream takes it slowly — and what the client sends meanwhile
 * waits in the socket unread: a check that finds auto-read off, or found it off the time
 * before, starts the read timeout again (a client that stalls is told at most one read
 * timeout later than otherwise). The request timeout counts regardless.
 * <p>
 * One per connection, used on its event loop only. Only requests with a body pay for it:
 * one timer task per body, re-armed every read timeout while bytes keep coming.
 */
final class BodyTimer {

	private final ChannelHandlerContext ctx;

	private final long readTimeoutNanos;

	private final long requestTimeoutNanos;

	private final Runnable onTimeout;

	private final Ticker ticker;

	private final Runnable check = this::check;

	private boolean running;

	private long start;

	private long lastRead;

	private ScheduledFuture<?> task;

	/** Whether the last check found the gateway not reading. */
	private boolean pausedAtLastCheck;

	/**
	 * A timer on the connection's event loop; {@code ticker} is the time the loop
	 * schedules by ({@link Ticker#systemTicker()} on a real one).
	 */
	BodyTimer(ChannelHandlerContext ctx, Duration readTimeout, Duration requestTimeout, Runnable onTimeout,
			Ticker ticker) {
		this.ctx = ctx;
		this.readTimeoutNanos = readTimeout.toNanos();
		this.requestTimeoutNanos = requestTimeout.toNanos();
		this.onTimeout = onTimeout;
		this.ticker = ticker;
	}

	/** A request body started: from now on it must keep arriving. */
	void start() {
		this.running = true;
		this.start = this.ticker.nanoTime();
		this.lastRead = this.start;
		this.pausedAtLastCheck = false;
		this.task = this.ctx.executor().schedule(this.check, this.readTimeoutNanos, TimeUnit.NANOSECONDS);
	}

	/** A piece of the body arrived. */
	void bodyRead() {
		this.lastRead = this.ticker.nanoTime();
	}

	/** Whether a body is being received. */
	boolean running() {
		return this.running;
	}

	/** The body is complete, or the request is over. */
	void stop() {
		this.running = false;
		if (this.task != null) {
			this.task.cancel(false);
			this.task = null;
		}
	}

	private void check() {
		if (!this.running || !this.ctx.channel().isActive()) {
			return;
		}
		long now = this.ticker.nanoTime();
		boolean paused = !this.ctx.channel().config().isAutoRead();
		if (paused || this.pausedAtLastCheck) {
			// the gateway is not reading, or was not for part of the time since the last
			// check (it may have resumed a moment ago, its waiting bytes not read yet):
			// not a stall of the client's
			this.lastRead = now;
		}
		this.pausedAtLastCheck = paused;
		long sinceRead = now - this.lastRead;
		if (sinceRead < this.readTimeoutNanos && now - this.start < this.requestTimeoutNanos) {
			long next = Math.min(this.readTimeoutNanos - sinceRead, this.requestTimeoutNanos - (now - this.start));
			this.task = this.ctx.executor().schedule(this.check, next, TimeUnit.NANOSECONDS);
			return;
		}
		this.onTimeout.run();
	}

}
