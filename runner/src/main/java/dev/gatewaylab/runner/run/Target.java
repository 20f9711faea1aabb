package dev.gatewaylab.runner.run;

import java.net.URI;
import java.util.Map;

/**
 * One thing under load: a label, the plan that drives it, the base URL it points at, the
 * lab service whose process serves it (for CPU/RSS and JVM metrics) and that service's
 * management URL (null when unknown, e.g. nginx). {@code restartEnv} is set only for an
 * experiment's variants: the service is restarted with that environment (added to the
 * runner's own) before the target is measured; null = measured as it runs.
 */
public record Target(String name, String plan, URI url, String service, URI managementUrl,
		Map<String, String> restartEnv) {

	public Target(String name, String plan, URI url, String service, URI managementUrl) {
		this(name, plan, url, service, managementUrl, null);
	}

	/**
	 * The same service under another name, restarted with {@code env} before it is
	 * measured.
	 */
	public Target variant(String variantName, String variantPlan, Map<String, String> env) {
		return new Target(variantName, variantPlan != null ? variantPlan : plan, url, service, managementUrl,
				Map.copyOf(env));
	}

	public String host() {
		return url.getHost();
	}

	public int port() {
		return url.getPort() > 0 ? url.getPort() : ("https".equals(url.getScheme()) ? 443 : 80);
	}

	public String protocol() {
		return url.getScheme();
	}

	public boolean local() {
		String h = host();
		return h.equals("localhost") || h.startsWith("127.") || h.equals("::1") || h.equals("[::1]");
	}
}
