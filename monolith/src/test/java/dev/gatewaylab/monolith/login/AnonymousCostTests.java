package dev.gatewaylab.monolith.login;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.catalina.Context;
import org.apache.catalina.Manager;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.security.crypto.password.PasswordEncoder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a client that never signs in can make the monolith hold or spend, over real HTTP:
 * no session (Tomcat's own count, as {@code tomcat_sessions_active_current_sessions}
 * reads it), no heap, no password check (the password encoder's calls are counted), none
 * of a user's login budget; and what a sign-in past the session cap gets. Its own
 * context: at most three sessions ({@code MONOLITH_MAX_SESSIONS=3}), the default five
 * attempts per user. Each test signs out whom it signed in, so every test starts at no
 * session.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "MONOLITH_BCRYPT_COST=4", "MONOLITH_MAX_SESSIONS=3",
				"test.context=anonymous-cost" })
@Import(AnonymousCostTests.CountedPasswordChecks.class)
class AnonymousCostTests {

	private static final String[] ANONYMOUS_PATHS = { "/", "/login", "/login?error", "/login?logout", "/settings",
			"/no-such-page", "/css/lab.css", "/favicon.ico" };

	@LocalServerPort
	int port;

	@Autowired
	ServletWebServerApplicationContext context;

	@Autowired
	PasswordEncoder passwordEncoder;

	@Test
	void tenThousandAnonymousGetsMakeNoSessionAndLeaveTheHeapFlat() throws Exception {
		Manager sessions = sessions();
		long created = sessions.getSessionCounter();
		assertThat(anonymousGets(1_000)).as("the worst status of the warm-up").isLessThan(500);
		long heapBefore = heapAfterGc();
		assertThat(anonymousGets(10_000)).as("the worst status").isLessThan(500);
		long grown = heapAfterGc() - heapBefore;
		assertThat(sessions.getActiveSessions()).as("live sessions").isZero();
		assertThat(sessions.getSessionCounter()).as("sessions ever made").isEqualTo(created);
		// each of them used to hold a session with the saved request and a CSRF token
		assertThat(grown).as("heap after GC grew by %d bytes", grown).isLessThan(4L * 1024 * 1024);
	}

	@Test
	void aFloodOfAttemptsWithoutACsrfTokenSpendsNoneOfTheUsersBudgetAndNoPasswordCheck() throws Exception {
		HttpBrowser attacker = new HttpBrowser(this.port);
		int checks = checks();
		for (int i = 0; i < 50; i++) { // ten times the budget
			assertThat(attacker.postForm("/login", Map.of("username", "user21", "password", "guess-" + i)).statusCode())
				.isEqualTo(403);
		}
		assertThat(checks()).as("password checks").isEqualTo(checks);
		HttpBrowser user = new HttpBrowser(this.port);
		assertThat(HttpBrowser.location(user.login("user21", "password"))).as("the user's own sign-in").isEqualTo("/");
		user.logout();
	}

	@Test
	void aBlankOrMissingUserNameIs400BeforeAnyPasswordCheck() throws Exception {
		HttpBrowser browser = new HttpBrowser(this.port);
		int checks = checks();
		for (String blank : new String[] { "", " ", "   ", "\u2003", "\u00a0" }) {
			String token = HttpBrowser.csrfToken(browser.get("/login"));
			assertEmptyName(browser.postForm("/login", Map.of("username", blank, "password", "x", "_csrf", token)));
		}
		String token = HttpBrowser.csrfToken(browser.get("/login"));
		assertEmptyName(browser.postForm("/login", Map.of("password", "x", "_csrf", token)));
		assertThat(checks()).as("password checks").isEqualTo(checks);
		assertThat(HttpBrowser.location(browser.login("nobody", "x"))).isEqualTo("/login?error");
		assertThat(checks()).as("an unknown name is checked against a dummy hash").isGreaterThan(checks);
	}

	@Test
	void aSignInPastTheSessionCapIs503WithRetryAfterAndASignOutMakesRoom() throws Exception {
		List<HttpBrowser> signedIn = new ArrayList<>();
		for (int i = 1; i <= 3; i++) {
			HttpBrowser browser = new HttpBrowser(this.port);
			assertThat(HttpBrowser.location(browser.login("user" + (30 + i), "password"))).isEqualTo("/");
			signedIn.add(browser);
		}
		assertThat(sessions().getActiveSessions()).isEqualTo(3);
		HttpBrowser late = new HttpBrowser(this.port);
		HttpResponse<String> refused = late.login("user34", "password");
		assertThat(refused.statusCode()).isEqualTo(503);
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("60");
		assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(refused.body()).contains("\"status\":503")
			.contains("\"detail\":\"The server holds as many sessions as it may; sign in again later.\"");
		HttpResponse<String> page = late.postForm("/login", Map.of("username", "user34", "password", "password",
				"_csrf", HttpBrowser.csrfToken(late.get("/login"))), "text/html");
		assertThat(page.statusCode()).as("a browser").isEqualTo(503);
		assertThat(page.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/html"));
		assertThat(page.body()).contains("as many sessions as it may");
		assertThat(late.sessionId()).as("no session for the refused").isNull();
		assertThat(signedIn.get(0).get("/").statusCode()).as("the others stay signed in").isEqualTo(200);

		assertThat(HttpBrowser.location(signedIn.remove(0).logout())).isEqualTo("/login?logout");
		assertThat(HttpBrowser.location(late.login("user34", "password"))).as("after a sign-out").isEqualTo("/");
		signedIn.add(late);
		for (HttpBrowser browser : signedIn) {
			browser.logout();
		}
		assertThat(sessions().getActiveSessions()).isZero();
	}

	/** {@code count} GETs of the anonymous paths from four clients: the worst status. */
	private int anonymousGets(int count) throws Exception {
		HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
		String base = "http://localhost:" + this.port;
		AtomicInteger next = new AtomicInteger();
		List<Future<Integer>> clients = new ArrayList<>();
		ExecutorService pool = Executors.newFixedThreadPool(4);
		try {
			for (int c = 0; c < 4; c++) {
				clients.add(pool.submit(() -> {
					int worst = 0;
					for (int i; (i = next.getAndIncrement()) < count;) {
						HttpRequest get = HttpRequest
							.newBuilder(URI.create(base + ANONYMOUS_PATHS[i % ANONYMOUS_PATHS.length]))
							.build();
						worst = Math.max(worst, http.send(get, HttpResponse.BodyHandlers.discarding()).statusCode());
					}
					return worst;
				}));
			}
			int worst = 0;
			for (Future<Integer> client : clients) {
				worst = Math.max(worst, client.get());
			}
			return worst;
		}
		finally {
			pool.shutdownNow();
		}
	}

	private static void assertEmptyName(HttpResponse<String> response) {
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(response.body()).contains("\"detail\":\"The user name is empty.\"");
	}

	/** The application's Tomcat context's session manager. */
	private Manager sessions() {
		TomcatWebServer server = (TomcatWebServer) this.context.getWebServer();
		return ((Context) server.getTomcat().getHost().findChildren()[0]).getManager();
	}

	private int checks() {
		return ((CountingPasswordEncoder) this.passwordEncoder).calls.get();
	}

	private static long heapAfterGc() {
		for (int i = 0; i < 3; i++) {
			System.gc();
		}
		return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
	}

	/** Every call of the app's password encoder, counted. */
	@TestConfiguration(proxyBeanMethods = false)
	static class CountedPasswordChecks {

		@Bean
		static BeanPostProcessor countPasswordChecks() {
			return new BeanPostProcessor() {
				@Override
				public Object postProcessAfterInitialization(Object bean, String name) {
					return (bean instanceof PasswordEncoder encoder) ? new CountingPasswordEncoder(encoder) : bean;
				}
			};
		}

	}

	static final class CountingPasswordEncoder implements PasswordEncoder {

		final AtomicInteger calls = new AtomicInteger();

		private final PasswordEncoder encoder;

		CountingPasswordEncoder(PasswordEncoder encoder) {
			this.encoder = encoder;
		}

		@Override
		public String encode(CharSequence rawPassword) {
			this.calls.incrementAndGet();
			return this.encoder.encode(rawPassword);
		}

		@Override
		public boolean matches(CharSequence rawPassword, String encodedPassword) {
			this.calls.incrementAndGet();
			return this.encoder.matches(rawPassword, encodedPassword);
		}

		@Override
		public boolean upgradeEncoding(String encodedPassword) {
			return this.encoder.upgradeEncoding(encodedPassword);
		}

	}

}
