package dev.gatewaylab.study;

import java.util.List;

import jakarta.servlet.DispatcherType;

import org.apache.catalina.core.StandardHost;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.jdbc.autoconfigure.JdbcClientAutoConfiguration;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorViewResolver;
import org.springframework.boot.webmvc.error.ErrorAttributes;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.context.MessageSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.util.unit.DataSize;
import org.springframework.web.servlet.config.annotation.ContentNegotiationConfigurer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Brings the studies feature into any app that has this jar: storage and seed always, the
 * REST API and its error handling in a servlet web app. The app only sets its datasource
 * and lists {@code classpath:db/migration/study} in {@code spring.flyway.locations}
 * (Flyway versions V1..V9 belong to this library). The seed is a {@code JavaMigration}
 * bean, which Boot's Flyway auto-configuration picks up. Storage uses {@link JdbcClient},
 * not Spring Data repositories, so the host app's own repository scanning is untouched.
 */
@AutoConfiguration(after = JdbcClientAutoConfiguration.class,
		beforeName = "org.springframework.boot.webmvc.autoconfigure.error.ErrorMvcAutoConfiguration")
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
		@ConditionalOnMissingBean(ErrorController.class)
		ProblemErrorController problemErrorController(ErrorAttributes errorAttributes,
				ObjectProvider<ErrorViewResolver> viewResolvers,
				@Value("${study.error.html-pages:false}") boolean htmlPages) {
			return new ProblemErrorController(errorAttributes, viewResolvers.orderedStream().toList(), htmlPages);
		}

		@Bean
		FilterRegistrationBean<BodySizeLimitFilter> bodySizeLimitFilter(
				@Value("${study.max-body-size:1MB}") DataSize maxBodySize) {
			FilterRegistrationBean<BodySizeLimitFilter> registration = new FilterRegistrationBean<>(
					new BodySizeLimitFilter(maxBodySize.toBytes()));
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 100);
			return registration;
		}

		/**
		 * Before Spring Security and every other filter: the path parser they share threw
		 * on these.
		 */
		@Bean
		FilterRegistrationBean<PathParameterFilter> pathParameterFilter() {
			FilterRegistrationBean<PathParameterFilter> registration = new FilterRegistrationBean<>(
					new PathParameterFilter());
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 90);
			return registration;
		}

		/**
		 * Before every filter that asks for the request's locale (Spring's
		 * request-context filter, Spring Security's).
		 */
		@Bean
		FilterRegistrationBean<AcceptLanguageFilter> acceptLanguageFilter() {
			FilterRegistrationBean<AcceptLanguageFilter> registration = new FilterRegistrationBean<>(
					new AcceptLanguageFilter());
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 80);
			registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ERROR);
			return registration;
		}

		/**
		 * A malformed {@code Accept} reads as {@code *}{@code /*}, so errors keep their
		 * problem+json body. Sets the exact strategy list: Boot's
		 * {@code spring.mvc.contentnegotiation.*} options (query parameter, extra media
		 * types) no longer apply — neither app uses them.
		 */
		@Bean
		WebMvcConfigurer lenientAcceptHeader() {
			return new WebMvcConfigurer() {
				@Override
				public void configureContentNegotiation(ContentNegotiationConfigurer configurer) {
					configurer.strategies(List.of(new LenientAcceptStrategy()));
				}
			};
		}

		/**
		 * Tomcat's own 400s (encoded slash, bad escapes) as problem+json, not its HTML
		 * report.
		 */
		@Bean
		WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReportValve() {
			return (factory) -> factory.addContextCustomizers((context) -> {
				if (context.getParent() instanceof StandardHost host) {
					host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
				}
			});
		}

		@Bean
		SlowCallLimiter slowCallLimiter(@Value("${study.slow.max-concurrent:0}") int maxConcurrent,
				@Value("${spring.threads.virtual.enabled:false}") boolean virtualThreads) {
			return new SlowCallLimiter(SlowCallLimiter.effectiveMax(maxConcurrent, virtualThreads));
		}

	}

}
