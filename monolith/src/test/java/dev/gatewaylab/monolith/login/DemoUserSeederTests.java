package dev.gatewaylab.monolith.login;

import org.junit.jupiter.api.Test;

import dev.gatewaylab.monolith.MonolithIntegrationTest;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.DefaultApplicationArguments;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.crypto.password.PasswordEncoder;

import static org.assertj.core.api.Assertions.assertThat;

@MonolithIntegrationTest
class DemoUserSeederTests {

	@Autowired
	JdbcClient jdbc;

	@Autowired
	DemoUserSeeder seeder;

	@Autowired
	PasswordEncoder passwordEncoder;

	@Test
	void seedsAThousandDemoUsersHashedAtTheConfiguredCost() {
		assertThat(count()).isEqualTo(1000);
		String hash = this.jdbc.sql("SELECT password FROM app_user WHERE username = 'user1000'")
			.query(String.class)
			.single();
		assertThat(hash).startsWith("$2a$04$");
		assertThat(this.passwordEncoder.matches("password", hash)).isTrue();
	}

	@Test
	void leavesExistingUsersAlone() {
		this.seeder.run(new DefaultApplicationArguments());

		assertThat(count()).isEqualTo(1000);
	}

	private long count() {
		return this.jdbc.sql("SELECT COUNT(*) FROM app_user").query(Long.class).single();
	}

}
