package dev.gatewaylab.monolith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * The whole monolith on random application and management ports, with the Prometheus
 * export on (Boot turns it off in tests by default). Demo users are hashed at BCrypt cost
 * 4, set through the same {@code MONOLITH_BCRYPT_COST} variable a user would set, to keep
 * tests fast. One shared annotation means one cached context for all test classes. Ten
 * login attempts per user and minute: the flow tests try user1 six times.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "MONOLITH_BCRYPT_COST=4", "MONOLITH_LOGIN_PER_USER=10" })
@AutoConfigureMetrics
public @interface MonolithIntegrationTest {

}
