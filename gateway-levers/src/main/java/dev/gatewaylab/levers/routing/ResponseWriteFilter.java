package dev.gatewaylab.levers.routing;

import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.netty.Connection;
import reactor.netty.http.client.HttpClientResponse;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.filter.NettyWriteResponseFilter;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.TrailerHeadersFilter;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;

import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.CLIENT_RESPONSE_ATTR;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.CLIENT_RESPONSE_CONN_ATTR;

/**
 * The routing lever's second half: writes the upstream's response body to the client as
 * Spring Cloud Gateway's {@link NettyWriteResponseFilter} does (same order, streaming
 * media types flushed per chunk, trailers, the upstream connection released on cancel or
 * error) with one measured difference: a body whose {@code Content-Length} is known and
 * at most {@link #MAX_AGGREGATED_BYTES} is collected first and written together with the
 * status line and headers. Written as a stream, Reactor Netty flushes the headers alone
 * and the body after: two socket writes and two wake-ups of the client per response.
 * Larger or unsized bodies still stream.
 */
public class ResponseWriteFilter implements GlobalFilter, Ordered {

	/**
	 * Bodies up to this size are written with the headers in one write (a copy of that
	 * size is never made).
	 */
	static final int MAX_AGGREGATED_BYTES = 64 * 1024;

	private final List<MediaType> streamingMediaTypes;

	private final HeadersFilters headersFilters;

	public ResponseWriteFilter(List<MediaType> streamingMediaTypes,
			ObjectProvider<List<HttpHeadersFilter>> headersFilters) {
		this.streamingMediaTypes = streamingMediaTypes;
		this.headersFilters = new HeadersFilters(headersFilters);
	}

	@Override
	public int getOrder() {
		return NettyWriteResponseFilter.WRITE_RESPONSE_FILTER_ORDER;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		return chain.filter(exchange).then(Mono.defer(() -> write(exchange))).doFinally((signal) -> {
			if (signal == SignalType.CANCEL || signal == SignalType.ON_ERROR) {
				Connection connection = exchange.getAttribute(CLIENT_RESPONSE_CONN_ATTR);
				if (connection != null) {
					connection.dispose();
				}
			}
		});
	}

	private Mono<Void> write(ServerWebExchange exchange) {
		Connection connection = exchange.getAttribute(CLIENT_RESPONSE_CONN_ATTR);
		if (connection == null) {
			return Mono.empty();
		}
		ServerHttpResponse response = exchange.getResponse();
		HttpClientResponse clientResponse = exchange.getAttribute(CLIENT_RESPONSE_ATTR);
		MediaType contentType = contentType(response);
		Mono<Void> written;
		if (contentType != null && isStreaming(contentType)) {
			written = response.writeAndFlushWith(
					connection.inbound().receive().retain().map((buffer) -> Flux.just(wrap(buffer, response))));
		}
		else if (isSmall(clientResponse)) {
			// aggregate() releases its buffer when it terminates: retain() hands the
			// write
			// its own reference, released once written (the write may finish later, on
			// the client's event loop).
			Mono<DataBuffer> body = connection.inbound()
				.receive()
				.aggregate()
				.retain()
				.map((buffer) -> wrap(buffer, response));
			written = response.writeWith(body);
		}
		else {
			written = response
				.writeWith(connection.inbound().receive().retain().map((buffer) -> wrap(buffer, response)));
		}
		return written.then(TrailerHeadersFilter.filter(this.headersFilters.get(), exchange, clientResponse)).then();
	}

	/**
	 * The upstream's buffer as the response's: wrapped on a Netty server; copied (and
	 * released) for a response of another buffer factory (a test's mock response), as the
	 * framework does.
	 */
	private static DataBuffer wrap(ByteBuf buffer, ServerHttpResponse response) {
		DataBufferFactory factory = response.bufferFactory();
		if (factory instanceof NettyDataBufferFactory netty) {
			return netty.wrap(buffer);
		}
		if (factory instanceof DefaultDataBufferFactory plain) {
			DataBuffer copy = plain.allocateBuffer(buffer.readableBytes());
			copy.write(buffer.nioBuffer());
			buffer.release();
			return copy;
		}
		throw new IllegalArgumentException("Unknown DataBufferFactory type " + factory.getClass());
	}

	private static boolean isSmall(@Nullable HttpClientResponse clientResponse) {
		if (clientResponse == null) {
			return false;
		}
		io.netty.handler.codec.http.HttpHeaders headers = clientResponse.responseHeaders();
		String length = headers.get(HttpHeaderNames.CONTENT_LENGTH);
		if (length == null || headers.contains(HttpHeaderNames.TRANSFER_ENCODING)) {
			return false;
		}
		try {
			long bytes = Long.parseLong(length.trim());
			return bytes >= 0 && bytes <= MAX_AGGREGATED_BYTES;
		}
		catch (NumberFormatException ex) {
			return false;
		}
	}

	private static @Nullable MediaType contentType(ServerHttpResponse response) {
		try {
			return response.getHeaders().getContentType();
		}
		catch (RuntimeException invalid) {
			return null;
		}
	}

	private boolean isStreaming(MediaType contentType) {
		for (MediaType streaming : this.streamingMediaTypes) {
			if (streaming.isCompatibleWith(contentType)) {
				return true;
			}
		}
		return false;
	}

}
