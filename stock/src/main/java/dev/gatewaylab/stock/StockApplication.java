package dev.gatewaylab.stock;

import dev.gatewaylab.accesslog.LoggingMode;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Stock Spring Cloud Gateway: a generated WebFlux gateway with the lab's routes (YAML)
 * and the lab's access log, and nothing else.
 */
@SpringBootApplication(proxyBeanMethods = false)
public class StockApplication {

	public static void main(String[] args) {
		// Before the first logger exists: Log4j2 reads its context selector once.
		LoggingMode.resolve(args, System.getenv()).configureLog4j2();
		SpringApplication.run(StockApplication.class, args);
	}

}
