package dev.gatewaylab.gateway.server;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;

/**
 * The management port's server is built by its own child context, which applies
 * {@code WebServerFactoryCustomizer}s but not the parent's {@code NettyServerCustomizer}
 * beans: this hands it the same {@link ServerHardeningCustomizer}. Listed in
 * {@code META-INF/spring/...ManagementContextConfiguration.imports}, never
 * component-scanned.
 */
class ManagementServerHardening implements WebServerFactoryCustomizer<NettyReactiveWebServerFactory> {

	private final ServerHardeningCustomizer customizer;

	ManagementServerHardening(@Value("${gateway.server.read-timeout:3s}") String readTimeout,
			@Value("${gateway.server.request-timeout:30s}") String requestTimeout,
			@Value("${gateway.server.max-body-size:1MB}") String maxBodySize) {
		this.customizer = new ServerHardeningCustomizer(readTimeout, requestTimeout, maxBodySize);
	}

	@Override
	public void customize(NettyReactiveWebServerFactory factory) {
		factory.addServerCustomizers(this.customizer);
	}

}
