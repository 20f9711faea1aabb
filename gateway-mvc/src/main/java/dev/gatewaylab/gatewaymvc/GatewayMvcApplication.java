package dev.gatewaylab.gatewaymvc;

import dev.gatewaylab.accesslog.LoggingMode;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * Spring Cloud Gateway Server WebMVC on virtual threads in front of study-service and the
 * monolith: the WebFlux gateway's routes, access log and error answers on the servlet
 * stack, so the two servers can be measured on the same request (docs/gateway-mvc.md).
 */
@SpringBootApplication
public class GatewayMvcApplication {

	public static void main(String[] args) {
		// Before the first logger or HTTP client exists: Log4j2 and the JDK's HttpClient
		// read these once.
		RuntimeDefaults.apply(System.getenv());
		LoggingMode.resolve(args, System.getenv()).configureLog4j2();
		SpringApplication.run(GatewayMvcApplication.class, args);
	}

	@Bean
	static VirtualThreadsCheck virtualThreadsCheck() {
		return new VirtualThreadsCheck();
	}

}
