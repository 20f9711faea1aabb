package dev.gatewaylab.monolith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The monolith: a login page and a home page, plus the study API served in-process by the
 * {@code study-core} auto-configuration — the baseline the gateway setup is compared
 * with.
 */
@SpringBootApplication
public class MonolithApplication {

	public static void main(String[] args) {
		SpringApplication.run(MonolithApplication.class, args);
	}

}
