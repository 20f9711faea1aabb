package dev.gatewaylab.gateway.server;

import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.env.Environment;

/**
 * The management port's server is built by its own child context, which applies
 * {@code WebServerFactoryCustomizer}s but not the parent's {@code NettyServerCustomizer}
 * beans: this hands it the same {@link ServerHardeningCustomizer}. Listed in
 * {@code META-INF/spring/...ManagementContextConfiguration.imports}, never
 * component-scanned.
 */
class ManagementServerHardening implements WebServerFactoryCustomizer<NettyReactiveWebServerFactory> {

	private final ServerHardeningCustomizer customizer;

	ManagementServerHardening(Environment environment) {
		this.customizer = new ServerHardeningCustomizer(environment);
	}

	@Override
	public void customize(NettyReactiveWebServerFactory factory) {
		factory.addServerCustomizers(this.customizer);
	}

}
