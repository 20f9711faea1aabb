package dev.gatewaylab.gateway.server;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

/**
 * The {@code application/problem+json} answers the server's {@link RequestGuard} gives on
 * its own, each with {@code Connection: close}. Built only when a request is refused.
 */
final class ProblemResponses {

	private ProblemResponses() {
	}

	static FullHttpResponse response(HttpResponseStatus status) {
		byte[] body = ("{\"type\":\"about:blank\",\"title\":\"" + status.reasonPhrase() + "\",\"status\":"
				+ status.code() + ",\"detail\":\"" + detail(status) + "\"}")
			.getBytes(StandardCharsets.US_ASCII);
		FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
				Unpooled.wrappedBuffer(body));
		response.headers()
			.set(HttpHeaderNames.CONTENT_TYPE, "application/problem+json")
			.setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
			.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
		return response;
	}

	static String detail(HttpResponseStatus status) {
		return switch (status.code()) {
			case 505 -> "Only HTTP/1.0 and HTTP/1.1 are supported.";
			case 408 -> "The request body stopped arriving.";
			case 431 -> "Too many or too large header fields.";
			case 414 -> "The request line is too long.";
			case 405 -> "TRACE and CONNECT are not allowed.";
			case 413 -> "The request body is too large.";
			case 429 -> "Too many requests pipelined on one connection: this one and those after it were not processed;"
					+ " send them again on a new connection.";
			default ->
				"Malformed request: it needs valid framing, a valid request target, exactly one valid Host header (HTTP/1.1), no encoded '/', '\\\\' or NUL and no '.', '..' or empty segment in its path.";
		};
	}

}
