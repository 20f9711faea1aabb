package dev.gatewaylab.gatewaymvc;

import java.util.ArrayList;
import java.util.List;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * Refuses to start on a JDK without virtual threads (before 21) when the gateway is asked
 * to use them — for Tomcat's requests ({@code spring.threads.virtual.enabled},
 * {@code GATEWAY_MVC_VIRTUAL_THREADS}) or for the upstream client's executor
 * ({@code GATEWAY_MVC_CLIENT_EXECUTOR=virtual}) — instead of Spring Boot's silent fall
 * back to platform threads, which would measure another gateway than the one asked for.
 * The fallback on such a JDK is explicit: both set to platform threads. Checked as the
 * context refreshes, before any bean or the server exists.
 */
class VirtualThreadsCheck implements BeanFactoryPostProcessor, EnvironmentAware {

	static final int FIRST_JDK_WITH_VIRTUAL_THREADS = 21;

	private Environment environment;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		String refusal = refusal(this.environment, Runtime.version().feature());
		if (refusal != null) {
			throw new IllegalStateException(refusal);
		}
	}

	static String refusal(Environment environment, int jdk) {
		if (jdk >= FIRST_JDK_WITH_VIRTUAL_THREADS) {
			return null;
		}
		List<String> asked = new ArrayList<>();
		if (environment.getProperty("spring.threads.virtual.enabled", Boolean.class, false)) {
			asked.add("requests on virtual threads (GATEWAY_MVC_VIRTUAL_THREADS=true, the default)");
		}
		if ("virtual".equalsIgnoreCase(environment.getProperty("gateway-mvc.client.executor", "virtual"))) {
			asked.add("the upstream client on virtual threads (GATEWAY_MVC_CLIENT_EXECUTOR=virtual, the default)");
		}
		if (asked.isEmpty()) {
			return null;
		}
		return "gateway-mvc needs Java " + FIRST_JDK_WITH_VIRTUAL_THREADS + " or newer for "
				+ String.join(" and ", asked) + ", but runs on Java " + jdk
				+ ". Run it on a JDK 21+ (./lab: LAB_JAVA_HOME or GATEWAY_MVC_JAVA_HOME),"
				+ " or run it on platform threads: GATEWAY_MVC_VIRTUAL_THREADS=false GATEWAY_MVC_CLIENT_EXECUTOR=jdk.";
	}

}
