package dev.gatewaylab.servlet;

import java.time.Duration;

import org.springframework.boot.tomcat.TomcatWebServerFactory;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.env.Environment;

/**
 * Puts {@link RequestHeadDeadlineProtocol} in place of Tomcat's NIO HTTP/1.1 protocol,
 * with the deadline of {@code servlet-hardening.request-head-timeout}; zero or less
 * leaves Tomcat's protocol as it is, and so does a protocol an app chose itself.
 */
class RequestHeadDeadline implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

	static final String PROPERTY = "servlet-hardening.request-head-timeout";

	private final Duration timeout;

	/**
	 * The deadline as the environment sets it (Boot's conversions: {@code 10s},
	 * {@code 500ms}).
	 */
	RequestHeadDeadline(Environment environment) {
		this.timeout = environment.getProperty(PROPERTY, Duration.class, Duration.ofSeconds(10));
	}

	@Override
	public void customize(TomcatServletWebServerFactory factory) {
		if (this.timeout.isNegative() || this.timeout.isZero()
				|| !TomcatWebServerFactory.DEFAULT_PROTOCOL.equals(factory.getProtocol())) {
			return;
		}
		int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, this.timeout.toMillis()));
		factory.setProtocol(RequestHeadDeadlineProtocol.class.getName());
		factory.addConnectorCustomizers((connector) -> {
			if (connector.getProtocolHandler() instanceof RequestHeadDeadlineProtocol protocol) {
				protocol.setRequestHeadTimeout(millis);
			}
		});
	}

}
