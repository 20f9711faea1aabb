package dev.gatewaylab.study;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.jdbc.autoconfigure.JdbcClientAutoConfiguration;
import org.springframework.context.MessageSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Brings the studies feature into any app that has this jar: storage and seed always, the
 * REST API and its error handling in a servlet web app. The app only sets its datasource
 * and lists {@code classpath:db/migration/study} in {@code spring.flyway.locations}
 * (Flyway versions below 100 belong to this library: V1 the table, V2 the seed). The seed
 * is a {@code JavaMigration} bean, which Boot's Flyway auto-configuration picks up.
 * Storage uses {@link JdbcClient}, not Spring Data repositories, so the host app's own
 * repository scanning is untouched. What fails before or outside the API (Tomcat's
 * refusals, {@code /error}, the body size limit, a malformed {@code Accept}) is answered
 * by the servlet-hardening library's auto-configuration, which this jar brings along.
 */
@AutoConfiguration(after = JdbcClientAutoConfiguration.class)
public final class StudyAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	StudyRepository studyRepository(JdbcClient jdbcClient) {
		return new StudyRepository(jdbcClient);
	}

	@Bean
	StudySeedMigration studySeedMigration() {
		return new StudySeedMigration();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	static class StudyWebConfiguration {

		@Bean
		StudyController studyController(StudyRepository studyRepository, SlowCallLimiter slowCalls) {
			return new StudyController(studyRepository, slowCalls);
		}

		@Bean
		StudyProblemHandler studyProblemHandler(MessageSource messageSource) {
			return new StudyProblemHandler(messageSource);
		}

		@Bean
		SlowCallLimiter slowCallLimiter(@Value("${study.slow.max-concurrent:0}") int maxConcurrent,
				@Value("${spring.threads.virtual.enabled:false}") boolean virtualThreads) {
			return new SlowCallLimiter(SlowCallLimiter.effectiveMax(maxConcurrent, virtualThreads));
		}

	}

}
