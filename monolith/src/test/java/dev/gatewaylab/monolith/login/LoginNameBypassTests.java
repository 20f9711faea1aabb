package dev.gatewaylab.monolith.login;

import java.io.IOException;
import java.util.List;

import dev.gatewaylab.monolith.BrowserSession;
import dev.gatewaylab.monolith.MonolithIntegrationTest;
import dev.gatewaylab.testsupport.RawResponse;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The per-user login budget cannot be side-stepped by spelling the user name another way
 * (over real HTTP: Tomcat decodes the form). Spring Security trims control characters off
 * a name, so {@code %01user7} used to sign user7 in on a budget of its own; now such a
 * name is refused (400 problem+json, no budget charged, no password hashed), and every
 * spelling the sign-in resolves to user7 spends user7's budget. Ten attempts per user
 * here ({@link MonolithIntegrationTest}).
 */
@MonolithIntegrationTest
class LoginNameBypassTests {

	@LocalServerPort
	int port;

	@Test
	void afterTheBudgetIsSpentNoSpellingOfTheNameSignsTheUserIn() throws IOException {
		for (int i = 0; i < 10; i++) {
			assertThat(attempt("/login", "user7", "wrong").header("Location")).isEqualTo("/login?error");
		}
		assertThat(attempt("/login", "user7", "password").status()).isEqualTo(429);
		for (String spelling : List.of("%01user7", "user7%00", "%1Buser7", "user7%08", "%0Euser7", "%09user7",
				"%E2%80%8Buser7")) {
			RawResponse refused = attempt("/login", spelling, "password");
			assertThat(refused.status()).as(spelling).isEqualTo(400);
			assertThat(refused.isProblemJson()).isTrue();
			assertThat(refused.body())
				.contains("\"detail\":\"The user name contains a control, format or other non-printable character.\"");
		}
		for (String spelling : List.of("+user7+", "%E2%80%83user7", "USER7")) {
			assertThat(attempt("/login", spelling, "password").status()).as(spelling).isEqualTo(429);
		}
		for (String path : List.of("/login;a=b", "/login/", "//login", "/./login")) {
			assertThat(attempt(path, "user7", "password").header("Location")).as(path).isNotEqualTo("/");
		}
	}

	@Test
	void refusedNamesSpendNothingOfTheUsersBudget() throws IOException {
		for (int i = 0; i < 9; i++) {
			attempt("/login", "user8", "wrong");
		}
		for (int i = 0; i < 20; i++) {
			assertThat(attempt("/login", "%00user8", "password").status()).isEqualTo(400);
		}
		assertThat(attempt("/login", "user8", "password").header("Location")).as("the tenth attempt").isEqualTo("/");
	}

	@Test
	void theSignInLooksUpTheNameWithoutWhiteSpaceAtEitherEnd() throws IOException {
		RawResponse response = attempt("/login", "+user9%E2%80%83", "password");
		assertThat(response.header("Location")).isEqualTo("/");
	}

	/**
	 * A login from a new browser session; the user name as it stands in the form body.
	 */
	private RawResponse attempt(String path, String encodedName, String password) throws IOException {
		BrowserSession session = BrowserSession.open(this.port);
		return RawResponse
			.parse(session.postLogin(this.port, path, "username=" + encodedName + "&password=" + password));
	}

}
