package dev.gatewaylab.gateway.server;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a connection ends after the server answered a request early (413 while the body is
 * still coming, 408, 431, 400, 429): the answer is written, the output shut (the client
 * reads the answer to its end), then what the client still sends is read and discarded
 * for at most {@code time} and {@code bytes}, and the connection closed — nginx's
 * {@code lingering_close}, Tomcat's swallow limit. Closing at once would leave unread
 * bytes behind: the kernel answers them with a reset, which destroys the answer before a
 * client that is still uploading has read it. A client that closes on reading the answer
 * (as curl and browsers do) ends it at once.
 * <p>
 * Made only for a refused connection; a request that is fine never meets it.
 */
final class LingeringClose implements ChannelFutureListener {

	private static final Logger logger = LoggerFactory.getLogger(LingeringClose.class);

	private final ChannelHandlerContext ctx;

	private final long timeNanos;

	private final long maxBytes;

	private long discarded;

	private boolean answering;

	private boolean draining;

	private ScheduledFuture<?> deadline;

	LingeringClose(ChannelHandlerContext ctx, RequestLimits limits) {
		this.ctx = ctx;
		this.timeNanos = limits.lingerTime().toNanos();
		this.maxBytes = limits.lingerBytes();
	}

	/**
	 * Writes the answer (a response, or an empty buffer to wait for what is already
	 * written), then drains.
	 */
	void answer(Object message) {
		this.answering = true;
		this.ctx.writeAndFlush(message).addListener(this);
	}

	/**
	 * Whether the answer is written or being written: the connection is ours to close.
	 */
	boolean answering() {
		return this.answering;
	}

	@Override
	public void operationComplete(ChannelFuture written) {
		Channel channel = this.ctx.channel();
		if (!written.isSuccess() || !(channel instanceof DuplexChannel duplex) || !channel.isActive()) {
			this.ctx.close();
			return;
		}
		this.draining = true;
		this.deadline = this.ctx.executor().schedule(this::close, this.timeNanos, TimeUnit.NANOSECONDS);
		duplex.shutdownOutput();
		channel.config().setAutoRead(true);
		this.ctx.read();
	}

	/** What the client sent after the refusal: counted and dropped. */
	void discard(Object msg) {
		if (msg instanceof ByteBuf bytes) {
			this.discarded += bytes.readableBytes();
		}
		else if (msg instanceof ByteBufHolder holder) {
			this.discarded += holder.content().readableBytes();
		}
		ReferenceCountUtil.release(msg);
		if (this.discarded > this.maxBytes) {
			close();
		}
	}

	/** A read is over: keep reading while draining, whoever turned auto-read off. */
	void readComplete() {
		if (this.draining && !this.ctx.channel().config().isAutoRead()) {
			this.ctx.read();
		}
	}

	/** The connection closed (the client hung up, or a bound was reached). */
	void closed() {
		this.draining = false;
		if (this.deadline != null) {
			this.deadline.cancel(false);
			this.deadline = null;
		}
	}

	void close() {
		if (logger.isDebugEnabled()) {
			logger.debug("{} closed after discarding {} bytes{}", this.ctx.channel().remoteAddress(), this.discarded,
					(this.discarded > this.maxBytes) ? " (the limit)" : "");
		}
		closed();
		this.ctx.close();
	}

}
