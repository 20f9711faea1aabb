package dev.gatewaylab.levers.routing;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.Connection;
import reactor.netty.NettyInbound;
import reactor.netty.http.client.HttpClientResponse;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.CLIENT_RESPONSE_ATTR;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.CLIENT_RESPONSE_CONN_ATTR;

/**
 * Which kind of body the filter hands the response: one piece (a Mono, written with the
 * headers) or a stream.
 */
class ResponseWriteFilterTests {

	@SuppressWarnings("unchecked")
	private final ResponseWriteFilter filter = new ResponseWriteFilter(List.of(MediaType.TEXT_EVENT_STREAM),
			mock(ObjectProvider.class));

	@Test
	void aSizedSmallBodyIsWrittenInOnePieceWithItsHeaders() {
		Written written = write("{\"id\":1}", "8", null, "application/json");
		assertThat(written.publisher.get()).isInstanceOf(Mono.class);
		assertThat(written.body()).isEqualTo("{\"id\":1}");
	}

	@Test
	void aBodyOverTheLimitIsStreamed() {
		String big = "x".repeat(ResponseWriteFilter.MAX_AGGREGATED_BYTES + 1);
		Written written = write(big, String.valueOf(big.length()), null, "application/json");
		assertThat(written.publisher.get()).isNotInstanceOf(Mono.class);
		assertThat(written.body()).isEqualTo(big);
	}

	@Test
	void aChunkedOrUnsizedBodyIsStreamed() {
		assertThat(write("abc", null, "chunked", "application/json").publisher.get()).isNotInstanceOf(Mono.class);
		assertThat(write("abc", null, null, "application/json").publisher.get()).isNotInstanceOf(Mono.class);
		assertThat(write("abc", "nonsense", null, "application/json").publisher.get()).isNotInstanceOf(Mono.class);
	}

	@Test
	void aStreamingMediaTypeIsFlushedPerChunk() {
		Written written = write("data: 1\n\n", "9", null, "text/event-stream");
		assertThat(written.flushedPerChunk.get()).isTrue();
	}

	private Written write(String body, String contentLength, String transferEncoding, String contentType) {
		DefaultHttpHeaders upstreamHeaders = new DefaultHttpHeaders();
		if (contentLength != null) {
			upstreamHeaders.set(HttpHeaderNames.CONTENT_LENGTH, contentLength);
		}
		if (transferEncoding != null) {
			upstreamHeaders.set(HttpHeaderNames.TRANSFER_ENCODING, transferEncoding);
		}
		HttpClientResponse clientResponse = mock(HttpClientResponse.class);
		given(clientResponse.responseHeaders()).willReturn(upstreamHeaders);
		given(clientResponse.trailerHeaders()).willReturn(Mono.empty());
		NettyInbound inbound = mock(NettyInbound.class);
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		int half = bytes.length / 2;
		given(inbound.receive()).willReturn(ByteBufFlux.fromInbound(Flux.just(Unpooled.copiedBuffer(bytes, 0, half),
				Unpooled.copiedBuffer(bytes, half, bytes.length - half))));
		Connection connection = mock(Connection.class);
		given(connection.inbound()).willReturn(inbound);

		MockServerWebExchange mockExchange = MockServerWebExchange.from(MockServerHttpRequest.get("/api/studies/1"));
		mockExchange.getResponse().getHeaders().setContentType(MediaType.parseMediaType(contentType));
		Written written = new Written(mockExchange.getResponse());
		ServerWebExchange exchange = mockExchange.mutate().response(written).build();
		exchange.getAttributes().put(CLIENT_RESPONSE_ATTR, clientResponse);
		exchange.getAttributes().put(CLIENT_RESPONSE_CONN_ATTR, connection);
		this.filter.filter(exchange, (e) -> Mono.empty()).block();
		return written;
	}

	/** Records what the filter wrote; buffers are Netty's, as on the real server. */
	static final class Written extends ServerHttpResponseDecorator {

		final AtomicReference<Publisher<? extends DataBuffer>> publisher = new AtomicReference<>();

		final AtomicReference<Boolean> flushedPerChunk = new AtomicReference<>(false);

		private final StringBuilder body = new StringBuilder();

		Written(org.springframework.http.server.reactive.ServerHttpResponse delegate) {
			super(delegate);
		}

		@Override
		public DataBufferFactory bufferFactory() {
			return new NettyDataBufferFactory(ByteBufAllocator.DEFAULT);
		}

		@Override
		public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
			this.publisher.set(body);
			return Flux.from(body).doOnNext(this::append).then();
		}

		@Override
		public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
			this.flushedPerChunk.set(true);
			return Flux.from(body).concatMap(Flux::from).doOnNext(this::append).then();
		}

		private void append(DataBuffer buffer) {
			this.body.append(buffer.toString(StandardCharsets.UTF_8));
			DataBufferUtils.release(buffer);
		}

		String body() {
			return this.body.toString();
		}

	}

}
