package dev.gatewaylab.gateway.clientip;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class ClientIpConfiguration {

	@Bean
	ClientIpResolver clientIpResolver(@Value("${gateway.trusted-proxies:127.0.0.0/8}") String trustedProxies) {
		return ClientIpResolver.of(trustedProxies);
	}

}
