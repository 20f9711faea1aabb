package dev.gatewaylab.gateway.server;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
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
 * Refuses, before any routing, what RFC 9112 says a server must refuse and Netty lets
 * through: an HTTP version other than 1.0/1.1 (505), an HTTP/1.1 request without
 * {@code Host}, with several, or with a value that is no {@code host[:port]} (400), a
 * request target that is no URI (400), a path with an encoded slash, backslash or NUL, or
 * with a dot or empty segment ({@code /../}, {@code /./}, {@code //}) (400), TRACE and
 * CONNECT (405). Answered with {@code application/problem+json} and the connection
 * closed; everything the client still sends on it is dropped. Nothing is logged: a
 * malformed request is the client's problem, and a log line per bad request is a way to
 * flood the log.
 * <p>
 * It also bounds request bodies: over {@code gateway.server.max-body-size} → 413, by
 * {@code Content-Length} up front and, for a chunked body, as the bytes arrive (Spring
 * Cloud Gateway's RequestSize filter checks the header only). And it times request
 * bodies: a client that stops sending its own body for the read timeout, or takes longer
 * than the request timeout for all of it, gets 408 and the connection is closed (Reactor
 * Netty's own read/request timeouts close it without an answer; left alone, the
 * upstream's response timeout made it a 504 counted as a server error).
 * <p>
 * One instance per connection (it remembers a refusal). Cost per valid request: one
 * header iterator, a scan of the Host value's and the path's characters, a flag set per
 * response; a request with a body also schedules one timer task. Nothing is copied.
 */
public final class RequestGuard extends ChannelDuplexHandler {

	static final String NAME = "gateway.requestGuard";

	/**
	 * Tomcat's maxHeaderCount: more would be forwarded and refused by the upstream as an
	 * HTML page.
	 */
	static final int MAX_HEADERS = 100;

	static final AttributeKey<Integer> CLIENT_ERROR = AttributeKey.valueOf("gateway.clientError");

	private static final Logger logger = LoggerFactory.getLogger(RequestGuard.class);

	private final long readTimeoutNanos;

	private final long requestTimeoutNanos;

	private final long maxBodyBytes;

	private long bodyBytes;

	private boolean refused;

	// The request body being received: when it started, when its last piece came, whether
	// the answer has begun.
	private boolean receivingBody;

	private boolean responseStarted;

	private long bodyStart;

	private long lastRead;

	private ScheduledFuture<?> bodyTimer;

	RequestGuard(Duration readTimeout, Duration requestTimeout, long maxBodyBytes) {
		this.readTimeoutNanos = readTimeout.toNanos();
		this.requestTimeoutNanos = requestTimeout.toNanos();
		this.maxBodyBytes = maxBodyBytes;
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
			HttpResponseStatus problem = problem(request);
			if (problem != null) {
				refuse(ctx, msg, problem);
				return;
			}
			if (HttpUtil.getContentLength(request, 0L) > this.maxBodyBytes) {
				refuse(ctx, msg, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE);
				return;
			}
			if (!(msg instanceof LastHttpContent) && hasBody(request)) {
				startBodyTimer(ctx);
			}
		}
		else if (msg instanceof HttpContent content) {
			this.lastRead = System.nanoTime();
			this.bodyBytes += content.content().readableBytes();
			if (this.bodyBytes > this.maxBodyBytes) { // a chunked body has no
														// Content-Length to check up
														// front
				refuse(ctx, msg, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE);
				return;
			}
			if (msg instanceof LastHttpContent) {
				stopBodyTimer();
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
			if (this.receivingBody) {
				// hung up mid-body: the request under way ends as the client's 400, not
				// as an upstream failure
				ctx.channel().attr(CLIENT_ERROR).set(HttpResponseStatus.BAD_REQUEST.code());
			}
			this.refused = true;
			stopBodyTimer();
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
		stopBodyTimer();
		ReferenceCountUtil.release(msg);
		ctx.channel().attr(CLIENT_ERROR).set(status.code());
		if (this.responseStarted) {
			ctx.close();
		}
		else {
			ctx.writeAndFlush(response(status)).addListener(ChannelFutureListener.CLOSE);
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
		if (this.receivingBody) {
			// Hung up before its body was complete. Netty's decoder passes nothing on for
			// that (a premature close only
			// fails a request whose headers were incomplete), so without this the request
			// under way ended as an
			// upstream failure: a WARN and status=500 per client, or "cancelled". It is
			// the client's 400.
			ctx.channel().attr(CLIENT_ERROR).setIfAbsent(HttpResponseStatus.BAD_REQUEST.code());
		}
		stopBodyTimer();
		ctx.fireChannelInactive();
	}

	private static boolean hasBody(HttpRequest request) {
		return HttpUtil.isTransferEncodingChunked(request) || HttpUtil.getContentLength(request, 0L) > 0;
	}

	// Body timing: only requests with a body pay for a timer (one per request, checked
	// every read-timeout).
	private void startBodyTimer(ChannelHandlerContext ctx) {
		this.receivingBody = true;
		this.bodyStart = System.nanoTime();
		this.lastRead = this.bodyStart;
		this.bodyTimer = ctx.executor().schedule(() -> checkBody(ctx), this.readTimeoutNanos, TimeUnit.NANOSECONDS);
	}

	private void stopBodyTimer() {
		this.receivingBody = false;
		if (this.bodyTimer != null) {
			this.bodyTimer.cancel(false);
			this.bodyTimer = null;
		}
	}

	private void checkBody(ChannelHandlerContext ctx) {
		if (!this.receivingBody || !ctx.channel().isActive()) {
			return;
		}
		long now = System.nanoTime();
		long sinceRead = now - this.lastRead;
		if (sinceRead < this.readTimeoutNanos && now - this.bodyStart < this.requestTimeoutNanos) {
			long next = Math.min(this.readTimeoutNanos - sinceRead, this.requestTimeoutNanos - (now - this.bodyStart));
			this.bodyTimer = ctx.executor().schedule(() -> checkBody(ctx), next, TimeUnit.NANOSECONDS);
			return;
		}
		// The client stopped sending its own body: its fault, so 408 (not the 504 the
		// upstream's timeout would give),
		// and the connection is closed, which also cancels the upstream call.
		refuse(ctx, Unpooled.EMPTY_BUFFER, HttpResponseStatus.REQUEST_TIMEOUT);
	}

	/** The status to refuse the request with, or null when it is acceptable. */
	static HttpResponseStatus problem(HttpRequest request) {
		HttpVersion version = request.protocolVersion();
		boolean http11 = version == HttpVersion.HTTP_1_1;
		if (!http11 && version != HttpVersion.HTTP_1_0) {
			if (version.majorVersion() != 1 || version.minorVersion() > 1) {
				return HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED;
			}
		}
		HttpMethod method = request.method();
		if (method == HttpMethod.TRACE || method == HttpMethod.CONNECT) {
			// TRACE echoes headers back (cross-site tracing); CONNECT asks for a tunnel:
			// no route wants either
			return HttpResponseStatus.METHOD_NOT_ALLOWED;
		}
		String uri = request.uri();
		if (!isRequestTarget(uri, method) || hasForbiddenEscape(uri) || hasDotOrEmptySegment(uri)) {
			return HttpResponseStatus.BAD_REQUEST;
		}
		if (request.headers().size() > MAX_HEADERS) {
			return HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
		}
		Iterator<String> hosts = request.headers().valueStringIterator(HttpHeaderNames.HOST);
		if (!hosts.hasNext()) {
			return http11 ? HttpResponseStatus.BAD_REQUEST : null;
		}
		String host = hosts.next();
		return (hosts.hasNext() || !isHostAndPort(host)) ? HttpResponseStatus.BAD_REQUEST : null;
	}

	/**
	 * Characters a request target may hold as they are (RFC 3986: unreserved, sub-delims,
	 * ":@/?%").
	 */
	private static final boolean[] TARGET_CHARS = new boolean[128];

	static {
		for (char c : ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/?%")
			.toCharArray()) {
			TARGET_CHARS[c] = true;
		}
	}

	/**
	 * An origin-form ({@code /path?query}) or absolute-form ({@code http://host/path})
	 * request target that {@code java.net.URI} accepts, or {@code *} for OPTIONS.
	 * Anything else Spring's request adapter would answer with an empty 400, or route
	 * with a null host. Fast path: a scan of plain characters; anything unusual (a
	 * character outside RFC 3986, a {@code %} escape) is checked by {@code java.net.URI},
	 * as Spring will.
	 */
	static boolean isRequestTarget(String uri, HttpMethod method) {
		if (uri.isEmpty()) {
			return false;
		}
		if (uri.charAt(0) != '/') {
			if (uri.equals("*")) {
				return method == HttpMethod.OPTIONS;
			}
			String lower = uri.regionMatches(true, 0, "http://", 0, 7) ? uri.substring(7)
					: uri.regionMatches(true, 0, "https://", 0, 8) ? uri.substring(8) : null;
			if (lower == null || lower.isEmpty() || lower.charAt(0) == '/') {
				return false;
			}
		}
		for (int i = 0; i < uri.length(); i++) {
			char c = uri.charAt(i);
			if (c >= 128 || !TARGET_CHARS[c] || c == '%') {
				return parses(uri);
			}
		}
		return true;
	}

	private static boolean parses(String uri) {
		try {
			new java.net.URI(uri);
			return true;
		}
		catch (java.net.URISyntaxException ex) {
			return false;
		}
	}

	/**
	 * An encoded {@code /} or {@code \\} or NUL in the path (not the query): it reads as
	 * a different path to each decoder on the way (the actuator answered 500, Tomcat 400
	 * as HTML), so it is refused once, here.
	 */
	static boolean hasForbiddenEscape(String uri) {
		int query = uri.indexOf('?');
		int end = (query < 0) ? uri.length() : query;
		for (int pct = uri.indexOf('%'); pct >= 0 && pct + 2 < end; pct = uri.indexOf('%', pct + 1)) {
			char hi = uri.charAt(pct + 1);
			char lo = Character.toUpperCase(uri.charAt(pct + 2));
			if ((hi == '2' && lo == 'F') || (hi == '5' && lo == 'C') || (hi == '0' && lo == '0')) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A {@code .} or {@code ..} segment (a dot also as {@code %2e}, a segment also
	 * followed by {@code ;params}) or an empty one ({@code //}) in the path, not the
	 * query. The route predicates match the path as sent, the upstream normalises it:
	 * {@code /api/studies/../../x} matched the study-service route and reached
	 * study-service as {@code /x}. Browsers and HTTP clients remove dot segments before
	 * sending (RFC 3986 §5.2.4), so only a probe carries one. A trailing slash (an empty
	 * last segment) is fine.
	 */
	static boolean hasDotOrEmptySegment(String uri) {
		int start = 0;
		if (uri.charAt(0) != '/') { // absolute-form: the path starts after
									// scheme://authority
			int scheme = uri.indexOf("://");
			start = (scheme < 0) ? -1 : uri.indexOf('/', scheme + 3);
			if (start < 0) {
				return false;
			}
		}
		int end = start;
		while (end < uri.length() && uri.charAt(end) != '?' && uri.charAt(end) != '#') {
			end++;
		}
		for (int slash = start; slash < end;) {
			int next = uri.indexOf('/', slash + 1);
			if (next < 0 || next > end) {
				next = end;
			}
			if (next == slash + 1 && next < end) {
				return true; // "//"
			}
			int params = uri.indexOf(';', slash + 1);
			if (isDots(uri, slash + 1, (params >= 0 && params < next) ? params : next)) {
				return true;
			}
			slash = next;
		}
		return false;
	}

	/** {@code .} or {@code ..}, each dot written as itself or as {@code %2e}. */
	private static boolean isDots(String uri, int from, int to) {
		int dots = 0;
		for (int i = from; i < to; dots++) {
			if (uri.charAt(i) == '.') {
				i++;
			}
			else if (i + 3 <= to && uri.regionMatches(true, i, "%2e", 0, 3)) {
				i += 3;
			}
			else {
				return false;
			}
		}
		return dots == 1 || dots == 2;
	}

	/**
	 * {@code uri-host [ ":" port ]}: reg-name / IPv4 / IP-literal characters only (RFC
	 * 3986), not empty.
	 */
	static boolean isHostAndPort(String host) {
		int length = host.length();
		if (length == 0 || length > 255 + 6) {
			return false;
		}
		for (int i = 0; i < length; i++) {
			char c = host.charAt(i);
			boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'
					|| c == '.' || c == '_' || c == '~' || c == ':' || c == '[' || c == ']' || c == '%' || c == '!'
					|| c == '$' || c == '&' || c == '\'' || c == '(' || c == ')' || c == '*' || c == '+' || c == ','
					|| c == ';' || c == '=';
			if (!allowed) {
				return false;
			}
		}
		return true;
	}

	private static FullHttpResponse response(HttpResponseStatus status) {
		String detail = (status == HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED)
				? "Only HTTP/1.0 and HTTP/1.1 are supported."
				: (status == HttpResponseStatus.REQUEST_TIMEOUT) ? "The request body stopped arriving."
						: (status == HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE)
								? "Too many or too large header fields."
								: (status == HttpResponseStatus.REQUEST_URI_TOO_LONG) ? "The request line is too long."
										: (status == HttpResponseStatus.METHOD_NOT_ALLOWED)
												? "TRACE and CONNECT are not allowed."
												: (status == HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE)
														? "The request body is too large."
														: "Malformed request: it needs valid framing, a valid request target, exactly one valid Host header (HTTP/1.1), no encoded '/', '\\\\' or NUL and no '.', '..' or empty segment in its path.";
		byte[] body = ("{\"type\":\"about:blank\",\"title\":\"" + status.reasonPhrase() + "\",\"status\":"
				+ status.code() + ",\"detail\":\"" + detail + "\"}")
			.getBytes(StandardCharsets.US_ASCII);
		FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
				Unpooled.wrappedBuffer(body));
		response.headers()
			.set(HttpHeaderNames.CONTENT_TYPE, "application/problem+json")
			.setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
			.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
		return response;
	}

}
