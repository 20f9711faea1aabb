package dev.gatewaylab.monolith.login;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.security.crypto.password.PasswordEncoder;

import static org.assertj.core.api.Assertions.assertThat;

class PasswordConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
		.withUserConfiguration(PasswordConfiguration.class);

	@Test
	void bcryptCostDefaultsToTen() {
		this.runner.run((context) -> assertThat(context.getBean(PasswordEncoder.class).encode("password"))
			.startsWith("$2a$10$"));
	}

	@Test
	void bcryptCostIsConfigurable() {
		this.runner.withPropertyValues("monolith.security.bcrypt-cost=4")
			.run((context) -> assertThat(context.getBean(PasswordEncoder.class).encode("password"))
				.startsWith("$2a$04$"));
	}

	@Test
	void bcryptCostBelowFourFailsStartupNamingTheProperty() {
		this.runner.withPropertyValues("monolith.security.bcrypt-cost=3")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("monolith.security.bcrypt-cost")
				.hasMessageContaining("must be greater than or equal to 4"));
	}

	@Test
	void bcryptCostAboveThirtyOneFailsStartupNamingTheProperty() {
		this.runner.withPropertyValues("monolith.security.bcrypt-cost=32")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("monolith.security.bcrypt-cost")
				.hasMessageContaining("must be less than or equal to 31"));
	}

	@Test
	void nonNumericBcryptCostFailsStartup() {
		this.runner.withPropertyValues("monolith.security.bcrypt-cost=ten")
			.run((context) -> assertThat(context).getFailure()
				.hasStackTraceContaining("Failed to bind properties under 'monolith.security.bcrypt-cost' to int"));
	}

}
