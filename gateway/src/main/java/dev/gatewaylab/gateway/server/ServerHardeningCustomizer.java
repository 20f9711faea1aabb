package dev.gatewaylab.gateway.server;

import dev.gatewaylab.gateway.feature.Feature;

import io.netty.channel.ChannelPipeline;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Puts a {@link RequestGuard} on every connection of the gateway's HTTP server, with the
 * {@link RequestLimits} of {@code gateway.server.*} (the idle timeout is Spring Boot's
 * {@code server.netty.idle-timeout}). The management port gets it through
 * {@link ManagementServerHardening}.
 */
@Component
class ServerHardeningCustomizer implements NettyServerCustomizer, Feature {

	private final RequestLimits limits;

	ServerHardeningCustomizer(Environment environment) {
		this.limits = RequestLimits.of(environment);
	}

	@Override
	public HttpServer apply(HttpServer server) {
		return server.doOnChannelInit((observer, channel, remoteAddress) -> addGuard(channel.pipeline()));
	}

	private void addGuard(ChannelPipeline pipeline) {
		if (pipeline.get(NettyPipeline.HttpCodec) != null && pipeline.get(RequestGuard.NAME) == null) {
			pipeline.addAfter(NettyPipeline.HttpCodec, RequestGuard.NAME, new RequestGuard(this.limits));
		}
	}

	@Override
	public String feature() {
		return "request guard (head, body and pipelining limits, stalled bodies, lingering close)";
	}

}
