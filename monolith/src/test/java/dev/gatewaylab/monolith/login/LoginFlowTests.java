package dev.gatewaylab.monolith.login;

import java.io.IOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.gatewaylab.monolith.MonolithIntegrationTest;

import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The browser flow over real HTTP (cookies, redirects, CSRF) on a random port. Demo users
 * are hashed at BCrypt cost 4 here to keep the tests fast.
 */
@MonolithIntegrationTest
class LoginFlowTests {

	private static final Pattern CSRF_INPUT = Pattern
		.compile("<input type=\"hidden\" name=\"_csrf\" value=\"([^\"]+)\"");

	@LocalServerPort
	int port;

	private CookieManager cookies;

	private HttpClient http;

	@BeforeEach
	void newBrowser() {
		this.cookies = new CookieManager();
		this.http = HttpClient.newBuilder()
			.cookieHandler(this.cookies)
			.followRedirects(HttpClient.Redirect.NEVER)
			.build();
	}

	@Test
	void loginPageIsAFormWithCsrfTokenUsernameAndPassword() throws Exception {
		HttpResponse<String> page = get("/login");

		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/html"));
		assertThat(page.body()).containsPattern(CSRF_INPUT)
			.contains("name=\"username\"")
			.contains("name=\"password\"")
			.contains("/css/lab.css");
		assertThat(get("/css/lab.css").statusCode()).isEqualTo(200);
	}

	@Test
	void pagesCarryCspAndReferrerPolicyAndTheSessionCookieIsSameSiteLax() throws Exception {
		HttpResponse<String> page = get("/login");
		assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(
				(csp) -> assertThat(csp).contains("default-src 'self'").contains("frame-ancestors 'none'"));
		assertThat(page.headers().firstValue("Referrer-Policy")).hasValue("strict-origin-when-cross-origin");
		assertThat(page.headers().allValues("Set-Cookie")).anySatisfy(
				(cookie) -> assertThat(cookie).startsWith("JSESSIONID=").contains("SameSite=Lax").contains("HttpOnly"));
	}

	@Test
	void aBurstOfAttemptsForOneUserGets429WithRetryAfterAndOtherUsersAreUnaffected() throws Exception {
		for (int i = 0; i < 10; i++) { // MONOLITH_LOGIN_PER_USER=10 in these tests
			assertThat(login("burst-target", "guess-" + i).statusCode()).isEqualTo(302);
		}
		HttpResponse<String> refused = login("Burst-Target", "guess-10");
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow())).isBetween(1L, 60L);
		assertThat(login("burst-bystander", "guess").statusCode()).isEqualTo(302);
	}

	@Test
	void loginWithoutCsrfTokenIsForbidden() throws Exception {
		get("/login");

		HttpResponse<String> response = postForm("/login", Map.of("username", "user1", "password", "password"));

		assertThat(response.statusCode()).isEqualTo(403);
		assertThat(get("/").statusCode()).as("not signed in").isEqualTo(302);
	}

	@Test
	void loginWithForgedCsrfTokenIsForbidden() throws Exception {
		get("/login");

		HttpResponse<String> response = postForm("/login",
				Map.of("username", "user1", "password", "password", "_csrf", "forged"));

		assertThat(response.statusCode()).isEqualTo(403);
	}

	@Test
	void wrongPasswordRedirectsBackToLoginWithAnError() throws Exception {
		HttpResponse<String> response = login("user1", "wrong");

		assertThat(response.statusCode()).isEqualTo(302);
		assertThat(location(response)).isEqualTo("/login?error");
		assertThat(get("/login?error").body()).contains("Wrong user name or password");
	}

	@Test
	void unknownUserRedirectsBackToLoginWithAnError() throws Exception {
		HttpResponse<String> response = login("nobody", "password");

		assertThat(response.statusCode()).isEqualTo(302);
		assertThat(location(response)).isEqualTo("/login?error");
	}

	@Test
	void goodCredentialsRedirectHomeWithANewSessionIdAndShowTheStudies() throws Exception {
		get("/login");
		String sessionBeforeLogin = sessionId();

		HttpResponse<String> response = login("user1", "password");

		assertThat(response.statusCode()).isEqualTo(302);
		assertThat(location(response)).isEqualTo("/");
		assertThat(sessionBeforeLogin).isNotNull();
		assertThat(sessionId()).as("session fixation protection").isNotNull().isNotEqualTo(sessionBeforeLogin);
		HttpResponse<String> home = get("/");
		assertThat(home.statusCode()).isEqualTo(200);
		assertThat(home.body()).contains("Studies").contains("user1").contains("action=\"/logout\"");
		assertThat(home.body().split("class=\"tag\"", -1)).as("20 study rows, one category tag each").hasSize(20 + 1);
	}

	@Test
	void theLastDemoUserCanSignIn() throws Exception {
		HttpResponse<String> response = login("user1000", "password");

		assertThat(location(response)).isEqualTo("/");
	}

	@Test
	void homeRedirectsAnonymousVisitorsToLogin() throws Exception {
		HttpResponse<String> response = get("/");

		assertThat(response.statusCode()).isEqualTo(302);
		assertThat(location(response)).isEqualTo("/login");
	}

	@Test
	void logoutWithCsrfTokenSignsOutAndRedirectsToLoginLogout() throws Exception {
		login("user1", "password");
		String token = csrfToken(get("/"));

		HttpResponse<String> response = postForm("/logout", Map.of("_csrf", token));

		assertThat(response.statusCode()).isEqualTo(302);
		assertThat(location(response)).isEqualTo("/login?logout");
		assertThat(get("/").statusCode()).as("signed out").isEqualTo(302);
		assertThat(get("/login?logout").body()).contains("You have been signed out");
	}

	@Test
	void logoutWithoutCsrfTokenIsForbidden() throws Exception {
		login("user1", "password");

		HttpResponse<String> response = postForm("/logout", Map.of());

		assertThat(response.statusCode()).isEqualTo(403);
		assertThat(get("/").statusCode()).as("still signed in").isEqualTo(200);
	}

	@Test
	void unknownPageIsNotFoundForASignedInUser() throws Exception {
		login("user1", "password");

		HttpResponse<String> response = get("/no-such-page");

		assertThat(response.statusCode()).isEqualTo(404);
	}

	@Test
	void unknownPageSendsAnonymousVisitorsToLoginFirst() throws Exception {
		// Deny by default: a page that is not public needs a login
		// before anyone learns it is missing.
		HttpResponse<String> response = get("/no-such-page");

		assertThat(response.statusCode()).isEqualTo(302);
		assertThat(location(response)).isEqualTo("/login");
	}

	@Test
	void unknownStaticResourceIsNotFoundForAnyone() throws Exception {
		assertThat(get("/css/missing.css").statusCode()).isEqualTo(404);
	}

	@Test
	void postingGarbageToLoginNeverGivesAServerError() throws Exception {
		String token = csrfToken(get("/login"));

		HttpResponse<String> noFields = postForm("/login", Map.of("_csrf", token));
		HttpResponse<String> json = this.http.send(HttpRequest.newBuilder(uri("/login"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"username\":"))
			.build(), HttpResponse.BodyHandlers.ofString());

		assertThat(noFields.statusCode()).isEqualTo(302);
		assertThat(location(noFields)).isEqualTo("/login?error");
		assertThat(json.statusCode()).isEqualTo(403);
	}

	private HttpResponse<String> login(String username, String password) throws Exception {
		String token = csrfToken(get("/login"));
		return postForm("/login", Map.of("username", username, "password", password, "_csrf", token));
	}

	private String csrfToken(HttpResponse<String> page) {
		Matcher matcher = CSRF_INPUT.matcher(page.body());
		assertThat(matcher.find()).as("page has a _csrf input").isTrue();
		return matcher.group(1);
	}

	private String sessionId() {
		return this.cookies.getCookieStore()
			.getCookies()
			.stream()
			.filter((cookie) -> cookie.getName().equals("JSESSIONID"))
			.map(HttpCookie::getValue)
			.findFirst()
			.orElse(null);
	}

	private static String location(HttpResponse<?> response) {
		return response.headers().firstValue("Location").orElse(null);
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> postForm(String path, Map<String, String> fields)
			throws IOException, InterruptedException {
		String form = new LinkedHashMap<>(fields).entrySet()
			.stream()
			.map((field) -> encode(field.getKey()) + "=" + encode(field.getValue()))
			.collect(Collectors.joining("&"));
		return this.http.send(HttpRequest.newBuilder(uri(path))
			.header("Content-Type", "application/x-www-form-urlencoded")
			.POST(HttpRequest.BodyPublishers.ofString(form))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private URI uri(String path) {
		return URI.create("http://localhost:" + this.port + path);
	}

	private static String encode(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8);
	}

}
