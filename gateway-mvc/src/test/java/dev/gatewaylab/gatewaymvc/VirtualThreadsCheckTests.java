package dev.gatewaylab.gatewaymvc;

import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class VirtualThreadsCheckTests {

	@Test
	void onAJdkWithoutVirtualThreadsTheDefaultsAreRefusedNamingTheWayOut() {
		MockEnvironment defaults = new MockEnvironment().withProperty("spring.threads.virtual.enabled", "true");

		assertThat(VirtualThreadsCheck.refusal(defaults, 17)).contains("Java 21", "runs on Java 17",
				"GATEWAY_MVC_VIRTUAL_THREADS=false GATEWAY_MVC_CLIENT_EXECUTOR=jdk", "LAB_JAVA_HOME");
	}

	@Test
	void platformThreadsRunOnAnyJdk() {
		MockEnvironment platform = new MockEnvironment().withProperty("spring.threads.virtual.enabled", "false")
			.withProperty("gateway-mvc.client.executor", "jdk");

		assertThat(VirtualThreadsCheck.refusal(platform, 17)).isNull();
	}

	@Test
	void theClientsExecutorAloneNeedsThemToo() {
		MockEnvironment clientOnly = new MockEnvironment().withProperty("spring.threads.virtual.enabled", "false");

		assertThat(VirtualThreadsCheck.refusal(clientOnly, 17)).contains("GATEWAY_MVC_CLIENT_EXECUTOR=virtual")
			.doesNotContain("requests on virtual threads");
	}

	@Test
	void aJdkWithVirtualThreadsRunsTheDefaults() {
		assertThat(VirtualThreadsCheck
			.refusal(new MockEnvironment().withProperty("spring.threads.virtual.enabled", "true"), 21)).isNull();
	}

}
