package dev.gatewaylab.gateway.server;

import java.time.Duration;

import io.netty.channel.ChannelPipeline;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;

/**
 * Puts a {@link RequestGuard} on every connection of the gateway's HTTP server (the idle
 * timeout is Spring Boot's {@code server.netty.idle-timeout}). The management port gets
 * it through {@link ManagementServerHardening}.
 */
@Component
class ServerHardeningCustomizer implements NettyServerCustomizer {

	private final Duration readTimeout;

	private final Duration requestTimeout;

	private final long maxBodyBytes;

	// Strings, parsed here: the management child context has no conversion service for
	// "500ms".
	ServerHardeningCustomizer(@Value("${gateway.server.read-timeout:3s}") String readTimeout,
			@Value("${gateway.server.request-timeout:30s}") String requestTimeout,
			@Value("${gateway.server.max-body-size:1MB}") String maxBodySize) {
		this.readTimeout = DurationStyle.detectAndParse(readTimeout);
		this.requestTimeout = DurationStyle.detectAndParse(requestTimeout);
		this.maxBodyBytes = DataSize.parse(maxBodySize).toBytes();
	}

	@Override
	public HttpServer apply(HttpServer server) {
		return server.doOnChannelInit((observer, channel, remoteAddress) -> addGuard(channel.pipeline()));
	}

	private void addGuard(ChannelPipeline pipeline) {
		if (pipeline.get(NettyPipeline.HttpCodec) != null && pipeline.get(RequestGuard.NAME) == null) {
			pipeline.addAfter(NettyPipeline.HttpCodec, RequestGuard.NAME,
					new RequestGuard(this.readTimeout, this.requestTimeout, this.maxBodyBytes));
		}
	}

}
