package dev.gatewaylab.servlet;

import java.util.List;

import jakarta.servlet.DispatcherType;
import org.apache.catalina.core.StandardHost;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorViewResolver;
import org.springframework.boot.webmvc.error.ErrorAttributes;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;
import org.springframework.web.servlet.config.annotation.ContentNegotiationConfigurer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * What a servlet app of the lab answers to input no well-behaved client sends, in any app
 * that has this jar: problem+json with the client's 4xx, never a 500, an empty body or
 * Tomcat's HTML report — for what Tomcat refuses itself, for the {@code /error} page, and
 * from the filters in front of everything else. Nothing here knows the app's domain.
 * Settings: {@code servlet-hardening.max-body-size} (default 1MB),
 * {@code servlet-hardening.error.html-pages} (default false) and
 * {@code servlet-hardening.request-head-timeout} (default 10s, 0 for none); the names the
 * first two had before this library, {@code study.max-body-size} and
 * {@code study.error.html-pages}, still apply when the new ones are not set
 * (study-service and the monolith use them).
 */
@AutoConfiguration(beforeName = "org.springframework.boot.webmvc.autoconfigure.error.ErrorMvcAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public final class ServletHardeningAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(ErrorController.class)
	ProblemErrorController problemErrorController(ErrorAttributes errorAttributes,
			ObjectProvider<ErrorViewResolver> viewResolvers,
			@Value("${servlet-hardening.error.html-pages:${study.error.html-pages:false}}") boolean htmlPages) {
		return new ProblemErrorController(errorAttributes, viewResolvers.orderedStream().toList(), htmlPages);
	}

	@Bean
	FilterRegistrationBean<BodySizeLimitFilter> bodySizeLimitFilter(
			@Value("${servlet-hardening.max-body-size:${study.max-body-size:1MB}}") DataSize maxBodySize) {
		FilterRegistrationBean<BodySizeLimitFilter> registration = new FilterRegistrationBean<>(
				new BodySizeLimitFilter(maxBodySize.toBytes()));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 100);
		return registration;
	}

	/**
	 * Before Spring Security and every other filter: the path parser they share threw on
	 * these.
	 */
	@Bean
	FilterRegistrationBean<PathParameterFilter> pathParameterFilter() {
		FilterRegistrationBean<PathParameterFilter> registration = new FilterRegistrationBean<>(
				new PathParameterFilter());
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 90);
		return registration;
	}

	/**
	 * Before every filter that asks for the request's locale (Spring's request-context
	 * filter, Spring Security's).
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
	 * types) no longer apply — no app of the lab uses them.
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
	 * Tomcat's own refusals (encoded slash, bad escapes, header fields over its limits)
	 * as problem+json, not its HTML report.
	 */
	@Bean
	WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReportValve() {
		return (factory) -> factory.addContextCustomizers((context) -> {
			if (context.getParent() instanceof StandardHost host) {
				host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
			}
		});
	}

	/**
	 * A deadline for the request line and header fields together: Tomcat's timeouts are
	 * per read, so a head sent a byte at a time held a connection for good.
	 */
	@Bean
	RequestHeadDeadline requestHeadDeadline(Environment environment) {
		return new RequestHeadDeadline(environment);
	}

}
