package dev.gatewaylab.monolith.login;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * BCrypt with the configured cost; an out-of-range cost fails start-up at property
 * binding.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(MonolithSecurityProperties.class)
class PasswordConfiguration {

	@Bean
	PasswordEncoder passwordEncoder(MonolithSecurityProperties properties) {
		return new BCryptPasswordEncoder(properties.bcryptCost());
	}

}
