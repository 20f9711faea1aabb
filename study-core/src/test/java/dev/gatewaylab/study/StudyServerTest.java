package dev.gatewaylab.study;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * This library in a real server, as an app that depends on it gets it (the servlet
 * hardening included): Tomcat on a random application port and the actuator's own Tomcat
 * on a random management port, the seed on H2, a 10 KB body limit. One shared annotation
 * means one cached context.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@SpringBootTest(classes = StudyTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "management.endpoints.web.exposure.include=health",
				"spring.flyway.locations=classpath:db/migration/study",
				"spring.datasource.url=jdbc:h2:mem:study-server;DB_CLOSE_DELAY=-1", "study.max-body-size=10KB" })
@interface StudyServerTest {

}
