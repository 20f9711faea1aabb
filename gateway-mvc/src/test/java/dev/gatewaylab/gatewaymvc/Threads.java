package dev.gatewaylab.gatewaymvc;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The tests run on the JDK that runs the build — 17 by default, which has no virtual
 * threads: there the gateway is tested on platform threads (both virtual-thread settings
 * off, the documented fallback), on 21+ as it runs in the lab. {@code ci/gateway-mvc.sh}
 * runs it on virtual threads on real processes.
 */
final class Threads {

	static final boolean VIRTUAL = Runtime.version().feature() >= 21;

	private Threads() {
	}

	static void register(DynamicPropertyRegistry registry) {
		registry.add("spring.threads.virtual.enabled", () -> VIRTUAL);
		registry.add("gateway-mvc.client.executor", () -> VIRTUAL ? "virtual" : "jdk");
	}

}
