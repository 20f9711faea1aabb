package dev.gatewaylab.studyservice;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The study REST API on its own; the studies feature itself comes from study-core's
 * auto-configuration.
 */
@SpringBootApplication
public class StudyServiceApplication {

	public static void main(String[] args) {
		SpringApplication.run(StudyServiceApplication.class, args);
	}

}
