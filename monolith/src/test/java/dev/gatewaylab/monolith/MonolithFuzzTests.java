package dev.gatewaylab.monolith;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gatewaylab.testsupport.MalformedRequests;
import dev.gatewaylab.testsupport.RawHttp;
import dev.gatewaylab.testsupport.RawResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bounded fuzz of the monolith's browser side on raw sockets: {@value #CASES} requests
 * from a fixed seed ({@link MonolithFuzzRequests}), sent one after another (so each seed
 * gives the same outcomes). Every answer must be below 500 (505 only for a version other
 * than HTTP/1.x), carry no stack trace, redirect only within this site (a relative
 * {@code Location}, for HTTP/1.0 too), and be {@code application/problem+json} when it is
 * an error — except that a client asking for a page (not {@code /api}) and accepting HTML
 * ({@code text/html}, {@code text/*}) may get the HTML error page: a deliberate choice
 * (docs/reliability.md). The app logs no WARN or ERROR meanwhile, is ready afterwards and
 * still signs a user in.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "MONOLITH_BCRYPT_COST=4", "MONOLITH_LOGIN_PER_USER=5",
				"STUDY_MAX_BODY_SIZE=16KB", "server.tomcat.connection-timeout=1s", "fuzz.context=monolith" })
class MonolithFuzzTests {

	static final int CASES = 3000;

	static final long SEED = 20261125L;

	private static final Pattern LOGGED_PROBLEM = Pattern.compile("(?m)^\\S+\\s+(WARN|ERROR)\\s+\\d+ --- .*$");

	private static final Pattern ACCEPTS_HTML = Pattern.compile("(?im)^accept:[^\\r\\n]*text/(html|\\*)");

	@LocalServerPort
	int port;

	@LocalManagementPort
	int managementPort;

	@Test
	void threeThousandFuzzedBrowserRequestsNeverGive5xxStackTracesOrNonProblemApiErrors(CapturedOutput output)
			throws Exception {
		List<BrowserSession> anonymous = new ArrayList<>();
		List<BrowserSession> signedIn = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			anonymous.add(BrowserSession.open(this.port));
		}
		for (int i = 0; i < 4; i++) {
			signedIn.add(BrowserSession.signIn(this.port, "user" + (990 + i)));
		}
		int logStart = output.getAll().length();
		Random random = new Random(SEED);
		List<String> failures = new ArrayList<>();
		Map<String, Integer> outcomes = new TreeMap<>();
		for (int i = 0; i < CASES; i++) {
			String request = MonolithFuzzRequests.next(random, anonymous, signedIn);
			String response = RawHttp.exchange(this.port, request, 5_000);
			String outcome = RawResponse.outcome(response);
			outcomes.merge(outcome, 1, Integer::sum);
			String problem = problem(request, response, outcome);
			if (problem != null && failures.size() < 30) {
				failures
					.add(problem + ": " + RawHttp.printable(request, 300) + " → " + RawHttp.printable(response, 700));
			}
		}
		System.out.println("MonolithFuzzTests outcomes (seed " + SEED + "): " + outcomes);
		assertThat(failures).as("requests that broke a rule, of " + CASES + " (outcomes " + outcomes + ")").isEmpty();
		assertThat(outcomes.keySet()).as("the fuzz reached pages, redirects and refusals")
			.contains("200", "302", "400", "403", "404");

		// still healthy: the login page, a real sign-in, readiness
		assertThat(RawResponse.outcome(BrowserSession.get(this.port, "/login", null))).isEqualTo("200");
		BrowserSession user = BrowserSession.signIn(this.port, "user1000");
		assertThat(BrowserSession.get(this.port, "/", user.cookie())).startsWith("HTTP/1.1 200 ")
			.contains("Signed in as");
		assertThat(RawHttp.exchange(this.managementPort, MalformedRequests.get("/actuator/health/readiness"), 5_000))
			.startsWith("HTTP/1.1 200 ");
		List<String> logged = new ArrayList<>();
		Matcher m = LOGGED_PROBLEM.matcher(output.getAll().substring(logStart));
		while (m.find() && logged.size() < 10) {
			logged.add(m.group());
		}
		assertThat(logged).as("WARN/ERROR lines logged during the fuzz").isEmpty();
	}

	/** The rule a response broke, or null. */
	private static String problem(String request, String exchanged, String outcome) {
		if (exchanged.endsWith(RawHttp.READ_TIMEOUT)) {
			return "neither answered nor closed within 5 s";
		}
		if (outcome.startsWith("5") && !(outcome.equals("505") && !MalformedRequests.isHttp1x(request))) {
			return "a server error";
		}
		String lower = exchanged.toLowerCase();
		if (exchanged.contains("Exception") || exchanged.contains("\tat ") || lower.contains("whitelabel")
				|| lower.contains("apache tomcat")) {
			return "a stack trace or a framework error page in the answer";
		}
		Optional<RawResponse> response = RawResponse.tryParse(exchanged);
		if (outcome.startsWith("3") && !redirectsToThisSite(response.get().header("Location"))) {
			return "a redirect off this site";
		}
		// a HEAD answer has no body (RFC 9110 §9.3.2)
		if (outcome.startsWith("4") && !request.startsWith("HEAD ")) {
			boolean html = response.get().contentType().toLowerCase().startsWith("text/html");
			if (!response.get().isProblemJson() && !(html && wantsPage(request))) {
				return "an error that is neither problem+json nor (for a browser asking for a page) HTML";
			}
		}
		return null;
	}

	/**
	 * Location is a path on this site, relative — for HTTP/1.0 too, where Tomcat made it
	 * absolute on whatever host the request named.
	 */
	private static boolean redirectsToThisSite(String location) {
		return location != null && location.startsWith("/") && !location.startsWith("//");
	}

	/**
	 * A client asking for a page (not the API) that accepts HTML ({@code text/html},
	 * {@code text/*}): the HTML error page is an acceptable answer.
	 */
	private static boolean wantsPage(String request) {
		int space = request.indexOf(' ');
		// the app's own rule (ProblemErrorController, StudyProblemHandler):
		// the path is /api or under /api/
		boolean api = space >= 0 && (request.startsWith("/api/", space + 1) || request.startsWith("/api ", space + 1)
				|| request.startsWith("/api?", space + 1));
		return !api && ACCEPTS_HTML.matcher(request).find();
	}

}
