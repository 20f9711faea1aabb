package dev.gatewaylab.gateway.server;

import io.netty.util.AttributeKey;
import org.jspecify.annotations.Nullable;
import reactor.netty.Connection;

import org.springframework.http.server.reactive.AbstractServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * What the server knows about a request's client connection that the exchange does not
 * say: whether {@link RequestGuard} cut the request off, and whether the client is still
 * there.
 */
public final class ClientConnections {

	/** The status {@link RequestGuard} answered a connection with, mid-request. */
	static final AttributeKey<Integer> CLIENT_ERROR = AttributeKey.valueOf("gateway.clientError");

	private ClientConnections() {
	}

	/**
	 * The status the guard answered a request's connection with, when it cut off a
	 * request the gateway was already handling (malformed or stalled body, or a client
	 * that hung up mid-body): the access log records it instead of the exchange's own
	 * outcome.
	 */
	public static @Nullable Integer clientErrorStatus(ServerHttpRequest request) {
		Connection connection = connection(request);
		return (connection != null) ? connection.channel().attr(CLIENT_ERROR).get() : null;
	}

	/**
	 * Whether the client's connection of this request is closed: nothing can be answered
	 * on it any more.
	 */
	public static boolean clientGone(ServerHttpRequest request) {
		Connection connection = connection(request);
		return connection != null && !connection.channel().isActive();
	}

	private static @Nullable Connection connection(ServerHttpRequest request) {
		if (request instanceof AbstractServerHttpRequest nativeHolder
				&& nativeHolder.getNativeRequest() instanceof Connection connection) {
			return connection;
		}
		return null;
	}

}
