package dev.gatewaylab.levers;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class LeverTests {

	@Test
	void aLeverIsOnUnlessItsOwnPropertyOrTheSwitchForAllSaysFalse() {
		MockEnvironment environment = new MockEnvironment();
		assertThat(Lever.ROUTING.isEnabled(environment)).isTrue();
		environment.setProperty("gateway-levers.routing.enabled", "FALSE");
		assertThat(Lever.ROUTING.isEnabled(environment)).isFalse();
		assertThat(Lever.RETRY.isEnabled(environment)).isTrue();
		environment.setProperty("gateway-levers.enabled", "false");
		assertThat(Lever.RETRY.isEnabled(environment)).isFalse();
	}

	@Test
	void aValueThatIsNeitherTrueNorFalseIsRefusedNamingTheProperty() {
		MockEnvironment environment = new MockEnvironment().withProperty("gateway-levers.dispatch.enabled", "off");
		assertThatIllegalArgumentException().isThrownBy(() -> Lever.DISPATCH.isEnabled(environment))
			.withMessageContaining("gateway-levers.dispatch.enabled='off'")
			.withMessageContaining("true or false");
	}

	@Test
	void theConfigurationMetadataDescribesEveryLeversProperty() throws IOException {
		String metadata;
		try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			metadata = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		assertThat(metadata).contains("\"name\": \"" + Lever.ALL_ENABLED + "\"");
		for (Lever lever : Lever.values()) {
			assertThat(metadata).contains("\"name\": \"" + lever.property() + "\"");
		}
	}

}
