package dev.gatewaylab.gateway.server;

import java.nio.channels.ClosedChannelException;

import io.netty.util.concurrent.Ticker;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.CombinedChannelDuplexHandler;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.netty.Connection;
import reactor.netty.NettyPipeline;

import org.springframework.http.server.reactive.AbstractServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * Refuses, before any routing, what {@link RequestChecks} finds wrong with a request
 * head, what Netty could not decode, request bodies over the limit (413, by
 * {@code Content-Length} up front and, for a chunked body, as the bytes arrive: Spring
 * Cloud Gateway's RequestSize filter checks the header only), bodies that stop arriving
 * ({@link BodyTimer}: 408) and more than {@link #MAX_PIPELINED} requests under way on one
 * connection (429). The answer is {@link ProblemResponses application/problem+json},
 * given in order after the responses to earlier pipelined requests; then the connection
 * ends by a {@link LingeringClose}. A request under way when its body is refused ends in
 * the gateway as if the connection had closed. Nothing is logged above DEBUG: a malformed
 * request is the client's problem, and a log line per bad request is a way to flood the
 * log.
 * <p>
 * One instance per connection. Cost per valid request: the checks of
 * {@link RequestChecks}, two counters and two type checks per response; a request with a
 * body also schedules one timer task. Nothing is copied or allocated.
 */
public final class RequestGuard extends ChannelDuplexHandler {

	static final String NAME = "gateway.requestGuard";

	/**
	 * Requests one connection may have under way (read, not yet answered): well below
	 * Netty's own depth (128), which closes the connection after the next response,
	 * answers nothing and logs a WARN per connection.
	 */
	static final int MAX_PIPELINED = 64;

	private static final Logger logger = LoggerFactory.getLogger(RequestGuard.class);

	private final RequestLimits limits;

	private BodyTimer bodyTimer;

	private long bodyBytes;

	private final PipelinedRequests requests = new PipelinedRequests();

	// After a refusal: the connection's end, the answer waiting for earlier responses,
	// and whether the rest of the pipeline was told the connection closed.
	private LingeringClose lingering;

	private HttpResponseStatus pendingAnswer;

	private boolean detached;

	RequestGuard(RequestLimits limits) {
		this.limits = limits;
	}

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		// The client stopped sending its own body: its fault, so 408 (not the 504 the
		// upstream's timeout would give); the request under way is cancelled.
		this.bodyTimer = new BodyTimer(ctx, this.limits.readTimeout(), this.limits.requestTimeout(),
				() -> refuse(ctx, null, HttpResponseStatus.REQUEST_TIMEOUT, true), Ticker.systemTicker());
		// Marked as the channel closes, before anything else hears of it: Reactor Netty
		// fails the request body under way from its own close listener, which runs before
		// channelInactive reaches this handler.
		ctx.channel().closeFuture().addListener((closed) -> markHungUpMidBody(ctx));
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		if (this.lingering != null) {
			this.lingering.discard(msg);
			return;
		}
		if (msg instanceof HttpObject object && !object.decoderResult().isSuccess()) {
			refuseMalformed(ctx, msg, object.decoderResult().cause());
			return;
		}
		if (msg instanceof HttpRequest request) {
			this.bodyBytes = 0;
			HttpResponseStatus problem = RequestChecks.problem(request, this.limits.maxHeaderCount(),
					this.limits.maxHeaderBytes());
			if (problem == null && HttpUtil.getContentLength(request, 0L) > this.limits.maxBodyBytes()) {
				problem = HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE;
			}
			if (problem == null && this.requests.underWay() >= MAX_PIPELINED) {
				problem = HttpResponseStatus.TOO_MANY_REQUESTS;
			}
			if (problem != null) {
				refuse(ctx, msg, problem, false);
				return;
			}
			this.requests.passed();
			if (!(msg instanceof LastHttpContent) && hasBody(request)) {
				this.bodyTimer.start();
			}
		}
		else if (msg instanceof HttpContent content) {
			this.bodyTimer.bodyRead();
			this.bodyBytes += content.content().readableBytes();
			if (this.bodyBytes > this.limits.maxBodyBytes()) {
				// a chunked body has no Content-Length to check up front
				refuse(ctx, msg, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, true);
				return;
			}
			if (msg instanceof LastHttpContent) {
				this.bodyTimer.stop();
			}
		}
		ctx.fireChannelRead(msg);
	}

	/**
	 * What Netty could not decode. Reactor Netty would answer it (400/414/431, not as
	 * problem+json) and log a multi-line WARN per connection; a half-read body would also
	 * reach the gateway as a 500. Here: a client that hung up before its request was
	 * complete is dropped silently (a request under way ends as the client's 400);
	 * anything else gets the status as problem+json and one DEBUG line.
	 */
	private void refuseMalformed(ChannelHandlerContext ctx, Object msg, Throwable cause) {
		if (cause instanceof PrematureChannelClosureException) {
			if (this.bodyTimer.running()) {
				ctx.channel().attr(ClientConnections.CLIENT_ERROR).set(HttpResponseStatus.BAD_REQUEST.code());
			}
			this.bodyTimer.stop();
			ReferenceCountUtil.release(msg);
			return;
		}
		HttpResponseStatus status = (cause instanceof TooLongHttpLineException)
				? HttpResponseStatus.REQUEST_URI_TOO_LONG : (cause instanceof TooLongHttpHeaderException)
						? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE : HttpResponseStatus.BAD_REQUEST;
		if (logger.isDebugEnabled()) {
			logger.debug("{} malformed: {}", ctx.channel().remoteAddress(), cause.toString());
		}
		// a request's head failed before it was passed on; a chunk, while its request was
		refuse(ctx, msg, status, !(msg instanceof HttpRequest));
	}

	/**
	 * @param underWay whether the refused request was passed on: its body is refused
	 */
	private void refuse(ChannelHandlerContext ctx, Object msg, HttpResponseStatus status, boolean underWay) {
		if (logger.isDebugEnabled()) {
			logger.debug("{} refused {}{}, {} requests under way", ctx.channel().remoteAddress(), status.code(),
					underWay ? " mid-body" : "", this.requests.underWay());
		}
		this.bodyTimer.stop();
		ReferenceCountUtil.release(msg);
		this.lingering = new LingeringClose(ctx, this.limits);
		stopDecoding(ctx);
		if (!underWay) {
			if (this.requests.underWay() > 0) {
				this.pendingAnswer = status; // after the responses still under way
			}
			else {
				this.lingering.answer(ProblemResponses.response(status));
			}
			return;
		}
		ctx.channel().attr(ClientConnections.CLIENT_ERROR).set(status.code()); // see
																				// clientErrorStatus
		if (this.requests.underWay() == 0) {
			// answered already, its body still coming: only wait for what is written
			this.lingering.answer(Unpooled.EMPTY_BUFFER);
		}
		else if (this.requests.responseStarted() || this.requests.underWay() > 1) {
			ctx.close(); // no answer can be given in order any more
		}
		else {
			this.detached = true;
			this.lingering.answer(ProblemResponses.response(status));
			ctx.fireChannelInactive(); // the exchange under way ends as on a close
		}
	}

	/**
	 * What the client still sends reaches the guard as bytes (no Netty limit to trip).
	 */
	private static void stopDecoding(ChannelHandlerContext ctx) {
		ChannelHandler codec = ctx.pipeline().get(NettyPipeline.HttpCodec);
		if (codec instanceof CombinedChannelDuplexHandler<?, ?> combined && !ctx.isRemoved()) {
			combined.removeInboundHandler();
		}
	}

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
		if (this.detached) {
			ReferenceCountUtil.release(msg);
			promise.tryFailure(new ClosedChannelException());
			return;
		}
		if (this.requests.written(msg) && this.pendingAnswer != null && this.requests.underWay() == 0) {
			ctx.write(msg, promise);
			this.lingering.answer(ProblemResponses.response(this.pendingAnswer));
			this.pendingAnswer = null;
			return;
		}
		ctx.write(msg, promise);
	}

	@Override
	public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
		if (this.lingering != null && this.lingering.answering()) {
			// the rest of the pipeline is done with it; the lingering close ends it
			ctx.channel().closeFuture().addListener((closed) -> promise.trySuccess());
			return;
		}
		ctx.close(promise);
	}

	@Override
	public void channelReadComplete(ChannelHandlerContext ctx) {
		if (this.lingering != null) {
			this.lingering.readComplete();
		}
		if (!this.detached) {
			ctx.fireChannelReadComplete();
		}
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) {
		markHungUpMidBody(ctx);
		this.bodyTimer.stop();
		if (this.lingering != null) {
			this.lingering.closed();
		}
		if (!this.detached) {
			ctx.fireChannelInactive();
		}
	}

	/**
	 * A client that hung up before its body was complete: its 400. Netty's decoder passes
	 * nothing on for that (a premature close only fails a request whose headers were
	 * incomplete), so without this the request under way ended as an upstream failure: a
	 * WARN and status=500 per client, or "cancelled".
	 */
	private void markHungUpMidBody(ChannelHandlerContext ctx) {
		if (this.bodyTimer.running()) {
			ctx.channel().attr(ClientConnections.CLIENT_ERROR).setIfAbsent(HttpResponseStatus.BAD_REQUEST.code());
		}
	}

	@Override
	public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
		if (this.lingering != null && evt instanceof ChannelInputShutdownEvent) {
			this.lingering.close(); // the client is done sending
		}
		ctx.fireUserEventTriggered(evt);
	}

	@Override
	public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
		if (this.lingering != null) {
			// a reset while draining, or a late decoding error: the answer is given
			if (logger.isDebugEnabled()) {
				logger.debug("{} after refusal: {}", ctx.channel().remoteAddress(), cause.toString());
			}
			return;
		}
		ctx.fireExceptionCaught(cause);
	}

	private static boolean hasBody(HttpRequest request) {
		return HttpUtil.isTransferEncodingChunked(request) || HttpUtil.getContentLength(request, 0L) > 0;
	}

}
