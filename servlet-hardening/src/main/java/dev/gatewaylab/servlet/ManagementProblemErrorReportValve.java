package dev.gatewaylab.servlet;

import org.apache.catalina.core.StandardHost;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;

/**
 * The management port's Tomcat answers what it refuses itself (an encoded slash:
 * {@code /actuator/health/a%2fb}) with {@link ProblemErrorReportValve} too, not Tomcat's
 * HTML report. That server is built by the actuator's own child context, which does not
 * apply the app context's customizers: listed in
 * {@code META-INF/spring/...ManagementContextConfiguration.imports}, never
 * component-scanned.
 */
class ManagementProblemErrorReportValve implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

	@Override
	public void customize(TomcatServletWebServerFactory factory) {
		factory.addContextCustomizers((context) -> {
			if (context.getParent() instanceof StandardHost host) {
				host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
			}
		});
	}

}
