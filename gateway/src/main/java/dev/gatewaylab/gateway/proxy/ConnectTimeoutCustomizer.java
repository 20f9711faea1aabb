package dev.gatewaylab.gateway.proxy;

import io.netty.channel.ChannelOption;
import reactor.netty.http.client.HttpClient;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.cloud.gateway.config.HttpClientCustomizer;
import org.springframework.stereotype.Component;

/**
 * Sets the upstream connect timeout once, on the shared client. Given as
 * {@code spring.cloud.gateway.server.webflux.httpclient.connect-timeout} or as route
 * metadata, Spring Cloud Gateway's {@code NettyRoutingFilter} applies it per request with
 * {@code httpClient.option(...)}, which copies the client's configuration on every
 * request. A route that really needs its own connect timeout can still set the
 * {@code connect-timeout} metadata (at that per-request cost).
 */
@Component
class ConnectTimeoutCustomizer implements HttpClientCustomizer {

	private final int connectTimeoutMillis;

	ConnectTimeoutCustomizer(@Value("${gateway.upstream.connect-timeout-ms:2000}") int connectTimeoutMillis) {
		this.connectTimeoutMillis = connectTimeoutMillis;
	}

	@Override
	public HttpClient customize(HttpClient httpClient) {
		return httpClient.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, this.connectTimeoutMillis);
	}

}
