package dev.gatewaylab.servlet;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * This library in a real server, as an app that depends on it gets it: Tomcat on a random
 * application port and the actuator's own Tomcat on a random management port, a 10 KB
 * body limit, a 3 s deadline for request heads. One shared annotation means one cached
 * context.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@SpringBootTest(classes = HardenedTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "management.endpoints.web.exposure.include=health",
				"study.max-body-size=10KB", "servlet-hardening.request-head-timeout=3s" })
@interface HardenedServerTest {

}
