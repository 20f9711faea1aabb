package dev.gatewaylab.gateway.tracing;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.filter.NettyWriteResponseFilter;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

import dev.gatewaylab.tracing.TracingSwitch;

/**
 * With tracing on only (no bean otherwise, so the default path is untouched): the
 * response body reaches the gateway's response write with the request's server span in
 * scope ({@link ServerSpanScope}). The response commits on the first body item and the
 * gateway's latency timer stops in a commit action, so the Prometheus histogram finds the
 * trace current and keeps its id as the bucket's exemplar.
 */
@Component
@ConditionalOnProperty(name = TracingSwitch.ENABLED, havingValue = "true")
class TracedResponseFilter implements GlobalFilter, Ordered {

	@Override
	public int getOrder() {
		// just before the response write, which hands the body to the response it finds
		return NettyWriteResponseFilter.WRITE_RESPONSE_FILTER_ORDER - 1;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		ServerHttpResponseDecorator response = new ServerHttpResponseDecorator(exchange.getResponse()) {

			@Override
			public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
				return super.writeWith((body instanceof Mono<? extends DataBuffer> mono) ? ServerSpanScope.around(mono)
						: ServerSpanScope.around(Flux.from(body)));
			}

			@Override
			public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
				return super.writeAndFlushWith(ServerSpanScope.around(Flux.from(body)));
			}

		};
		return chain.filter(exchange.mutate().response(response).build());
	}

}
