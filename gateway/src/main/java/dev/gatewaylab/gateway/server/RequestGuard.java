package dev.gatewaylab.gateway.server;

import java.time.Duration;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
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

import org.springframework.http.server.reactive.AbstractServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * Refuses, before any routing, what {@link RequestChecks} finds wrong with a request
 * head, what Netty could not decode, request bodies over
 * {@code gateway.server.max-body-size} (413, by {@code Content-Length} up front and, for
 * a chunked body, as the bytes arrive: Spring Cloud Gateway's RequestSize filter checks
 * the header only) and bodies that stop arriving ({@link BodyTimer}: 408). Answered with
 * {@link ProblemResponses application/problem+json} and the connection closed; everything
 * the client still sends on it is dropped. Nothing is logged above DEBUG: a malformed
 * request is the client's problem, and a log line per bad request is a way to flood the
 * log.
 * <p>
 * One instance per connection (it remembers a refusal). Cost per valid request: the
 * checks of {@link RequestChecks}, a flag set per response; a request with a body also
 * schedules one timer task. Nothing is copied.
 */
public final class RequestGuard extends ChannelDuplexHandler {

	static final String NAME = "gateway.requestGuard";

	static final AttributeKey<Integer> CLIENT_ERROR = AttributeKey.valueOf("gateway.clientError");

	private static final Logger logger = LoggerFactory.getLogger(RequestGuard.class);

	private final Duration readTimeout;

	private final Duration requestTimeout;

	private final long maxBodyBytes;

	private BodyTimer bodyTimer;

	private long bodyBytes;

	private boolean refused;

	private boolean responseStarted;

	RequestGuard(Duration readTimeout, Duration requestTimeout, long maxBodyBytes) {
		this.readTimeout = readTimeout;
		this.requestTimeout = requestTimeout;
		this.maxBodyBytes = maxBodyBytes;
	}

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		// The client stopped sending its own body: its fault, so 408 (not the 504 the
		// upstream's timeout would give), and the connection is closed, which also
		// cancels the upstream call.
		this.bodyTimer = new BodyTimer(ctx, this.readTimeout, this.requestTimeout,
				() -> refuse(ctx, null, HttpResponseStatus.REQUEST_TIMEOUT));
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		if (this.refused) {
			ReferenceCountUtil.release(msg);
			return;
		}
		if (msg instanceof HttpObject object && !object.decoderResult().isSuccess()) {
			refuseMalformed(ctx, msg, object.decoderResult().cause());
			return;
		}
		if (msg instanceof HttpRequest request) {
			this.responseStarted = false;
			this.bodyBytes = 0;
			HttpResponseStatus problem = RequestChecks.problem(request);
			if (problem != null) {
				refuse(ctx, msg, problem);
				return;
			}
			if (HttpUtil.getContentLength(request, 0L) > this.maxBodyBytes) {
				refuse(ctx, msg, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE);
				return;
			}
			if (!(msg instanceof LastHttpContent) && hasBody(request)) {
				this.bodyTimer.start();
			}
		}
		else if (msg instanceof HttpContent content) {
			this.bodyTimer.bodyRead();
			this.bodyBytes += content.content().readableBytes();
			if (this.bodyBytes > this.maxBodyBytes) {
				// a chunked body has no Content-Length to check up front
				refuse(ctx, msg, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE);
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
	 * reach the gateway as a 500. Here: a client that hung up before its headers were
	 * complete is dropped silently; anything else gets the status as problem+json, one
	 * DEBUG line, and is remembered on the channel so the access log of a request already
	 * under way says 400.
	 */
	private void refuseMalformed(ChannelHandlerContext ctx, Object msg, Throwable cause) {
		if (cause instanceof PrematureChannelClosureException) {
			if (this.bodyTimer.running()) {
				// hung up mid-body: the request under way ends as the client's 400, not
				// as an upstream failure
				ctx.channel().attr(CLIENT_ERROR).set(HttpResponseStatus.BAD_REQUEST.code());
			}
			this.refused = true;
			this.bodyTimer.stop();
			ReferenceCountUtil.release(msg);
			return;
		}
		HttpResponseStatus status = (cause instanceof TooLongHttpLineException)
				? HttpResponseStatus.REQUEST_URI_TOO_LONG : (cause instanceof TooLongHttpHeaderException)
						? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE : HttpResponseStatus.BAD_REQUEST;
		if (logger.isDebugEnabled()) {
			logger.debug("{} refused {}: {}", ctx.channel().remoteAddress(), status.code(), cause.toString());
		}
		refuse(ctx, msg, status);
	}

	private void refuse(ChannelHandlerContext ctx, Object msg, HttpResponseStatus status) {
		this.refused = true;
		this.bodyTimer.stop();
		ReferenceCountUtil.release(msg);
		ctx.channel().attr(CLIENT_ERROR).set(status.code());
		if (this.responseStarted) {
			ctx.close();
		}
		else {
			ctx.writeAndFlush(ProblemResponses.response(status)).addListener(ChannelFutureListener.CLOSE);
		}
	}

	/**
	 * The status this guard answered a request's connection with, when it cut off a
	 * request the gateway was already handling (malformed or stalled body): the access
	 * log records it instead of the exchange's own outcome.
	 */
	public static Integer clientErrorStatus(ServerHttpRequest request) {
		if (request instanceof AbstractServerHttpRequest nativeHolder
				&& nativeHolder.getNativeRequest() instanceof Connection connection) {
			return connection.channel().attr(CLIENT_ERROR).get();
		}
		return null;
	}

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
		if (msg instanceof HttpResponse) {
			this.responseStarted = true;
		}
		ctx.write(msg, promise);
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) {
		if (this.bodyTimer.running()) {
			// Hung up before its body was complete. Netty's decoder passes nothing on for
			// that (a premature close only fails a request whose headers were
			// incomplete), so without this the request under way ended as an upstream
			// failure: a WARN and status=500 per client, or "cancelled". It is the
			// client's 400.
			ctx.channel().attr(CLIENT_ERROR).setIfAbsent(HttpResponseStatus.BAD_REQUEST.code());
		}
		this.bodyTimer.stop();
		ctx.fireChannelInactive();
	}

	private static boolean hasBody(HttpRequest request) {
		return HttpUtil.isTransferEncodingChunked(request) || HttpUtil.getContentLength(request, 0L) > 0;
	}

}
