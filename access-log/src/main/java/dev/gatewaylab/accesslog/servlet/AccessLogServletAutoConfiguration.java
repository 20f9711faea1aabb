package dev.gatewaylab.accesslog.servlet;

import dev.gatewaylab.accesslog.LoggingMode;
import jakarta.servlet.DispatcherType;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

/**
 * The access log of a servlet application (the lab's Spring Cloud Gateway Server WebMVC):
 * {@link AccessLogFilter} first of every filter on the application port, so the line
 * covers what the others answer themselves (a body over the size limit, a malformed path
 * parameter). The management port, a context of its own, is not logged.
 */
@AutoConfiguration
@ConditionalOnClass(name = "jakarta.servlet.Filter")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public final class AccessLogServletAutoConfiguration {

	@Bean
	FilterRegistrationBean<AccessLogFilter> accessLogFilter(
			@Value("${" + LoggingMode.PROPERTY + ":async}") String mode) {
		FilterRegistrationBean<AccessLogFilter> registration = new FilterRegistrationBean<>(
				new AccessLogFilter(LoggingMode.of(mode)));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		registration.setDispatcherTypes(DispatcherType.REQUEST);
		return registration;
	}

}
