package dev.gatewaylab.monolith.login;

import java.net.HttpCookie;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.gatewaylab.monolith.MonolithIntegrationTest;
import dev.gatewaylab.testsupport.RawHttp;
import dev.gatewaylab.testsupport.RawResponse;

import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The browser flow over real HTTP (cookies, redirects, CSRF) on a random port. Demo users
 * are hashed at BCrypt cost 4 here to keep the tests fast.
 */
@MonolithIntegrationTest
class LoginFlowTests {

	@LocalServerPort
	int port;

	private HttpBrowser browser;

	@BeforeEach
	void newBrowser() {
		this.browser = new HttpBrowser(this.port);
	}

	@Test
	void loginPageIsAFormWithCsrfTokenUsernameAndPassword() throws Exception {
		HttpResponse<String> page = this.browser.get("/login");

		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/html"));
		assertThat(page.body()).containsPattern(HttpBrowser.CSRF_INPUT)
			.contains("name=\"username\"")
			.contains("name=\"password\"")
			.contains("/css/lab.css");
		assertThat(this.browser.get("/css/lab.css").statusCode()).isEqualTo(200);
	}

	@Test
	void pagesCarryCspAndReferrerPolicyAndBothCookiesAreSameSiteLaxAndHttpOnly() throws Exception {
		HttpResponse<String> page = this.browser.get("/login");
		assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(
				(csp) -> assertThat(csp).contains("default-src 'self'").contains("frame-ancestors 'none'"));
		assertThat(page.headers().firstValue("Referrer-Policy")).hasValue("strict-origin-when-cross-origin");
		assertThat(page.headers().allValues("Set-Cookie")).as("the CSRF token's cookie, and no session")
			.singleElement()
			.satisfies((cookie) -> assertThat(cookie).startsWith("XSRF-TOKEN=")
				.contains("SameSite=Lax")
				.contains("HttpOnly"));
		HttpResponse<String> signedIn = this.browser.postForm("/login",
				Map.of("username", "user4", "password", "password", "_csrf", HttpBrowser.csrfToken(page)));
		assertThat(signedIn.headers().allValues("Set-Cookie")).anySatisfy(
				(cookie) -> assertThat(cookie).startsWith("JSESSIONID=").contains("SameSite=Lax").contains("HttpOnly"));
	}

	@Test
	void anHttp10RequestIsRedirectedRelativelyWhateverHostItNames() throws Exception {
		for (String host : new String[] { "Host: evil.example\r\n", "" }) {
			RawResponse response = RawResponse
				.parse(RawHttp.exchange(this.port, "GET / HTTP/1.0\r\n" + host + "\r\n", 5_000));
			assertThat(response.status()).isEqualTo(302);
			assertThat(response.header("Location")).as(host).isEqualTo("/login");
		}
		String token = HttpBrowser.csrfToken(this.browser.get("/login"));
		String form = "username=user6&password=password&_csrf=" + HttpBrowser.encode(token);
		String cookies = this.browser.cookieHeader();
		RawResponse signedIn = RawResponse.parse(RawHttp.exchange(this.port,
				"POST /login HTTP/1.0\r\nHost: evil.example\r\nCookie: " + cookies
						+ "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " + form.length()
						+ "\r\n\r\n" + form,
				5_000));
		assertThat(signedIn.header("Location")).as("a sign-in over HTTP/1.0").isEqualTo("/");
	}

	@Test
	void aBurstOfAttemptsForOneUserGets429WithRetryAfterAndOtherUsersAreUnaffected() throws Exception {
		for (int i = 0; i < 10; i++) { // MONOLITH_LOGIN_PER_USER=10 in these tests
			assertThat(this.browser.login("burst-target", "guess-" + i).statusCode()).isEqualTo(302);
		}
		HttpResponse<String> refused = this.browser.login("Burst-Target", "guess-10");
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow())).isBetween(1L, 60L);
		assertThat(this.browser.login("burst-bystander", "guess").statusCode()).isEqualTo(302);
	}

	@Test
	void loginWithoutCsrfTokenIsForbidden() throws Exception {
		this.browser.get("/login");

		HttpResponse<String> response = this.browser.postForm("/login",
				Map.of("username", "user1", "password", "password"));

		assertThat(response.statusCode()).isEqualTo(403);
		assertThat(this.browser.get("/").statusCode()).as("not signed in").isEqualTo(302);
	}

	@Test
	void loginWithForgedCsrfTokenIsForbidden() throws Exception {
		this.browser.get("/login");

		HttpResponse<String> response = this.browser.postForm("/login",
				Map.of("username", "user1", "password", "password", "_csrf", "forged"));

		assertThat(response.statusCode()).isEqualTo(403);
	}

	@Test
	void wrongPasswordRedirectsBackToLoginWithAnError() throws Exception {
		HttpResponse<String> response = this.browser.login("user1", "wrong");

		assertThat(response.statusCode()).isEqualTo(302);
		assertThat(HttpBrowser.location(response)).isEqualTo("/login?error");
		assertThat(this.browser.get("/login?error").body()).contains("Wrong user name or password");
	}

	@Test
	void unknownUserRedirectsBackToLoginWithAnError() throws Exception {
		HttpResponse<String> response = this.browser.login("nobody", "password");

		assertThat(response.statusCode()).isEqualTo(302);
		assertThat(HttpBrowser.location(response)).isEqualTo("/login?error");
	}

	@Test
	void goodCredentialsRedirectHomeWithANewSessionAndShowTheStudies() throws Exception {
		this.browser.get("/login");
		assertThat(this.browser.sessionId()).as("no session before the sign-in").isNull();

		HttpResponse<String> response = this.browser.login("user1", "password");

		assertThat(response.statusCode()).isEqualTo(302);
		assertThat(HttpBrowser.location(response)).isEqualTo("/");
		assertThat(this.browser.sessionId()).as("a session from the sign-in").isNotNull();
		HttpResponse<String> home = this.browser.get("/");
		assertThat(home.statusCode()).isEqualTo(200);
		assertThat(home.body()).contains("Studies").contains("user1").contains("action=\"/logout\"");
		assertThat(home.body().split("class=\"tag\"", -1)).as("20 study rows, one category tag each").hasSize(20 + 1);
	}

	@Test
	void aSignInOverAnExistingSessionChangesTheSessionId() throws Exception {
		this.browser.login("user1", "password");
		String sessionBeforeLogin = this.browser.sessionId();

		HttpResponse<String> response = this.browser.login("user2", "password");

		assertThat(HttpBrowser.location(response)).isEqualTo("/");
		assertThat(sessionBeforeLogin).isNotNull();
		assertThat(this.browser.sessionId()).as("session fixation protection")
			.isNotNull()
			.isNotEqualTo(sessionBeforeLogin);
		assertThat(this.browser.get("/").body()).contains("user2");
	}

	@Test
	void aSessionIdPlantedBeforeTheSignInIsNotTheOneItGets() throws Exception {
		HttpCookie planted = new HttpCookie("JSESSIONID", "0123456789ABCDEF0123456789ABCDEF");
		planted.setPath("/");
		planted.setVersion(0);
		this.browser.cookies.getCookieStore().add(this.browser.uri("/"), planted);

		HttpResponse<String> response = this.browser.login("user5", "password");

		assertThat(HttpBrowser.location(response)).isEqualTo("/");
		assertThat(response.headers().allValues("Set-Cookie")).as("session fixation: a session id of its own")
			.anySatisfy((cookie) -> assertThat(cookie).startsWith("JSESSIONID=").doesNotContain(planted.getValue()));
	}

	@Test
	void theLastDemoUserCanSignIn() throws Exception {
		HttpResponse<String> response = this.browser.login("user1000", "password");

		assertThat(HttpBrowser.location(response)).isEqualTo("/");
	}

	@Test
	void homeRedirectsAnonymousVisitorsToLogin() throws Exception {
		HttpResponse<String> response = this.browser.get("/");

		assertThat(response.statusCode()).isEqualTo(302);
		assertThat(HttpBrowser.location(response)).isEqualTo("/login");
	}

	@Test
	void logoutWithCsrfTokenSignsOutAndRedirectsToLoginLogout() throws Exception {
		this.browser.login("user1", "password");
		String token = HttpBrowser.csrfToken(this.browser.get("/"));

		HttpResponse<String> response = this.browser.postForm("/logout", Map.of("_csrf", token));

		assertThat(response.statusCode()).isEqualTo(302);
		assertThat(HttpBrowser.location(response)).isEqualTo("/login?logout");
		assertThat(this.browser.get("/").statusCode()).as("signed out").isEqualTo(302);
		assertThat(this.browser.get("/login?logout").body()).contains("You have been signed out");
	}

	@Test
	void logoutWithoutCsrfTokenIsForbidden() throws Exception {
		this.browser.login("user1", "password");

		HttpResponse<String> response = this.browser.postForm("/logout", Map.of());

		assertThat(response.statusCode()).isEqualTo(403);
		assertThat(this.browser.get("/").statusCode()).as("still signed in").isEqualTo(200);
	}

	@Test
	void unknownPageIsNotFoundForASignedInUser() throws Exception {
		this.browser.login("user1", "password");

		HttpResponse<String> response = this.browser.get("/no-such-page");

		assertThat(response.statusCode()).isEqualTo(404);
	}

	@Test
	void unknownPageSendsAnonymousVisitorsToLoginFirst() throws Exception {
		// Deny by default: a page that is not public needs a login
		// before anyone learns it is missing.
		HttpResponse<String> response = this.browser.get("/no-such-page");

		assertThat(response.statusCode()).isEqualTo(302);
		assertThat(HttpBrowser.location(response)).isEqualTo("/login");
	}

	@Test
	void unknownStaticResourceIsNotFoundForAnyone() throws Exception {
		assertThat(this.browser.get("/css/missing.css").statusCode()).isEqualTo(404);
	}

	@Test
	void postingGarbageToLoginNeverGivesAServerError() throws Exception {
		String token = HttpBrowser.csrfToken(this.browser.get("/login"));

		HttpResponse<String> noFields = this.browser.postForm("/login", Map.of("_csrf", token));
		HttpResponse<String> json = this.browser.send(HttpRequest.newBuilder(this.browser.uri("/login"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"username\":"))
			.build());

		// no user name is a blank one: refused before any password check
		assertThat(noFields.statusCode()).isEqualTo(400);
		assertThat(noFields.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(json.statusCode()).isEqualTo(403);
	}

}
