package dev.gatewaylab.gateway;

import dev.gatewaylab.accesslog.LoggingMode;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class GatewayApplication {

	public static void main(String[] args) {
		// Must run before the first logger or event loop exists: Log4j2 and Reactor Netty
		// read these once.
		RuntimeDefaults.apply(System.getenv());
		LoggingMode.resolve(args, System.getenv()).configureLog4j2();
		SpringApplication.run(GatewayApplication.class, args);
	}

}
