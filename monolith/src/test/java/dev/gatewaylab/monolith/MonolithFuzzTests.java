package dev.gatewaylab.monolith;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 * A bounded fuzz of the monolith's browser side (issue 10) on raw sockets:
 * {@value #CASES} requests from a fixed seed, sent one after another (so each seed gives
 * the same outcomes) — methods, paths and path tricks, query strings, headers (Accept,
 * cookies, Host, forged proxy headers, ranges), form bodies on {@code /login} and
 * {@code /logout} with the CSRF token missing, forged, from another session or valid,
 * huge fields, broken escapes, wrong content types and framing. Every answer must be
 * below 500 (505 only for a version other than HTTP/1.x), carry no stack trace, redirect
 * only within this site (a relative {@code Location}; for HTTP/1.0, which needs an
 * absolute one, on the host the request named), and be {@code application/problem+json}
 * when it is an error — except that a client asking for a page (not {@code /api}) and
 * accepting HTML ({@code text/html}, {@code text/*}) may get the HTML error page: a
 * deliberate choice (docs/reliability.md). The app logs no WARN or ERROR meanwhile, is
 * ready afterwards and still signs a user in.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "MONOLITH_BCRYPT_COST=4", "MONOLITH_LOGIN_PER_USER=5",
				"STUDY_MAX_BODY_SIZE=16KB", "server.tomcat.connection-timeout=1s", "fuzz.context=monolith" })
class MonolithFuzzTests {

	static final int CASES = 3000;

	static final long SEED = 20261125L;

	private static final Pattern STATUS = Pattern.compile("HTTP/1\\.[01] (\\d{3})");

	private static final Pattern CSRF_INPUT = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

	private static final Pattern SESSION_COOKIE = Pattern.compile("(?i)set-cookie: (JSESSIONID=[^;\\r\\n]+)");

	private static final Pattern LOGGED_PROBLEM = Pattern.compile("(?m)^\\S+\\s+(WARN|ERROR)\\s+\\d+ --- .*$");

	private static final String[] METHODS = { "GET", "GET", "GET", "GET", "GET", "GET", "POST", "POST", "POST", "POST",
			"POST", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND", "get", "G(T", "FOO" };

	private static final String[] PAGES = { "/", "/login", "/logout", "/css/lab.css", "/css/missing.css",
			"/favicon.ico", "/error", "/home", "/login?error", "/login?logout", "/api/studies/1", "/api/studies",
			"/js/app.js", "/images/a.png" };

	private static final String[] PATH_PIECES = { "..", "/../", "/./", "%2e%2e", "%2e%2e/", ";jsessionid=abc", ";",
			"//", "\\", "%", "%zz", "%00", "%2F", "%5C", "%C0%AE", "%252e", "\u00e9", "%C3%A9", "{", "|", "~", "%20",
			"META-INF/", "WEB-INF/web.xml", "file:/etc/passwd", "url:http://x", "classpath:", "*", ":", "@", "'",
			"<x>" };

	private static final String[] QUERY_KEYS = { "error", "logout", "continue", "_csrf", "username", "page", "lang",
			"redirect", "a", "" };

	private static final String[] JUNK = { "", "1", "-1", "%zz", "%", "%00", "<script>alert(1)</script>",
			"http://evil.example/", "//evil.example", "\u00e9", "%E9", "a+b", "x".repeat(3000), "'\"", "${7*7}",
			"[[${7*7}]]", "__${T(java.lang.Runtime)}__::x" };

	private static final String[] ACCEPTS = { "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
			"text/html", "*/*", "application/json", "text/css", "application/problem+json", "a/b;q=x", "image/*",
			"text/*" };

	private static final String[] EXTRA_HEADERS = { "X-CSRF-TOKEN: forged", "X-XSRF-TOKEN: forged",
			"Origin: http://evil.example", "Referer: http://evil.example/", "X-Forwarded-For: junk, 1.2.3.4",
			"X-Forwarded-Host: evil.example", "X-Forwarded-Proto: gopher", "Forwarded: for=junk;host=evil.example",
			"Range: bytes=5-1", "Range: bytes=0-0,1-1,2-2,3-3,4-4,5-5", "Range: pages=1",
			"If-Modified-Since: yesterday", "If-None-Match: *", "If-Range: junk", "Accept-Language: xx-YY;q=abc",
			"Accept-Language: *", "Accept-Language: " + "en,".repeat(500) + "de", "Accept-Charset: nope",
			"Accept-Encoding: gzip, br", "Content-Encoding: gzip", "Expect: 100-continue", "Expect: bogus",
			"Upgrade: h2c", "Authorization: Basic %%%", "Authorization: Bearer x", "X-HTTP-Method-Override: DELETE",
			"Cookie: remember-me=garbage", "Cookie: SESSION=%%%", "X-Long: " + "a".repeat(6000), "Bad Header: x",
			"NoColon", "\u00dcml\u00e4ut: v" };

	private static final String[] CONTENT_TYPES = { "application/x-www-form-urlencoded; charset=nope",
			"application/json", "text/plain", "multipart/form-data", "multipart/form-data; boundary=x", "*/*", "",
			";;;", "application/x-www-form-urlencoded;charset=ISO-8859-1", "text/html", "a/b/c" };

	private static final String[] VERSIONS = { "HTTP/1.0", "HTTP/2.0", "HTTP/1.2", "HTTP/0.9", "", "HTTPS/1.1" };

	private static final String[] EXTRA_FIELDS = { "remember-me=on", "a=%zz", "&&&", "=", "a==b", "%E9=%FF",
			"x=" + "y".repeat(20_000), "_csrf=", "username=", "continue=http://evil.example/" };

	private static final String[] USERS = { "victim", "admin", "", " ", "user0", "USER1001", "\u00e9", "%zz",
			"a".repeat(20_000), "user1' OR '1'='1", "user1\u0000" };

	@LocalServerPort
	int port;

	@LocalManagementPort
	int managementPort;

	/**
	 * A client's cookie and a CSRF token rendered for it (any masked value of the
	 * session's token is valid).
	 */
	record Session(String cookie, String token) {
	}

	@Test
	void threeThousandFuzzedBrowserRequestsNeverGive5xxStackTracesOrNonProblemApiErrors(CapturedOutput output)
			throws Exception {
		List<Session> anonymous = new ArrayList<>();
		List<Session> signedIn = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			anonymous.add(newSession());
		}
		for (int i = 0; i < 4; i++) {
			signedIn.add(signIn("user" + (990 + i)));
		}
		int logStart = output.getAll().length();
		Random random = new Random(SEED);
		List<String> failures = new ArrayList<>();
		Map<String, Integer> outcomes = new TreeMap<>();
		for (int i = 0; i < CASES; i++) {
			String request = next(random, anonymous, signedIn);
			String response = RawHttp.exchange(this.port, request, 5_000);
			String outcome = outcome(response);
			outcomes.merge(outcome, 1, Integer::sum);
			String problem = problem(request, response, outcome);
			if (problem != null && failures.size() < 30) {
				failures.add(problem + ": " + printable(request, 300) + " → " + printable(response, 700));
			}
		}
		System.out.println("MonolithFuzzTests outcomes (seed " + SEED + "): " + outcomes);
		assertThat(failures).as("requests that broke a rule, of " + CASES + " (outcomes " + outcomes + ")").isEmpty();
		assertThat(outcomes.keySet()).as("the fuzz reached pages, redirects and refusals")
			.contains("200", "302", "400", "403", "404");

		// still healthy: the login page, a real sign-in, readiness
		assertThat(outcome(get("/login", null))).isEqualTo("200");
		Session user = signIn("user1000");
		assertThat(get("/", user.cookie())).startsWith("HTTP/1.1 200 ").contains("Signed in as");
		assertThat(RawHttp.exchange(this.managementPort,
				"GET /actuator/health/readiness HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", 5_000))
			.startsWith("HTTP/1.1 200 ");
		List<String> logged = new ArrayList<>();
		Matcher m = LOGGED_PROBLEM.matcher(output.getAll().substring(logStart));
		while (m.find() && logged.size() < 10) {
			logged.add(m.group());
		}
		assertThat(logged).as("WARN/ERROR lines logged during the fuzz").isEmpty();
	}

	/** The rule a response broke, or null. */
	private static String problem(String request, String response, String outcome) {
		if (response.contains("<read timeout>")) {
			return "neither answered nor closed within 5 s";
		}
		if (outcome.startsWith("5") && !(outcome.equals("505") && !isHttp1x(request))) {
			return "a server error";
		}
		String lower = response.toLowerCase();
		if (response.contains("Exception") || response.contains("\tat ") || lower.contains("whitelabel")
				|| lower.contains("apache tomcat")) {
			return "a stack trace or a framework error page in the answer";
		}
		String head = headerBlock(response).toLowerCase();
		if (outcome.startsWith("3") && !redirectsToThisSite(request, head)) {
			return "a redirect off this site";
		}
		if (outcome.startsWith("4") && !request.startsWith("HEAD ")) { // a HEAD answer
																		// has no body
																		// (RFC 9110
																		// §9.3.2)
			boolean problemJson = head.contains("content-type: application/problem+json");
			boolean html = head.contains("content-type: text/html");
			if (!problemJson && !(html && wantsPage(request))) {
				return "an error that is neither problem+json nor (for a browser asking for a page) HTML";
			}
		}
		return null;
	}

	/**
	 * Location is a path on this site — relative, or, for HTTP/1.0 (which needs an
	 * absolute URI, RFC 1945 §10.11), absolute on the host the request itself named.
	 */
	private static boolean redirectsToThisSite(String request, String head) {
		Matcher location = Pattern.compile("(?m)^location: (\\S*)").matcher(head);
		if (!location.find()) {
			return false;
		}
		String target = location.group(1);
		if (target.startsWith("/")) {
			return !target.startsWith("//");
		}
		Matcher host = Pattern.compile("(?im)^host: (\\S*)\r$").matcher(request);
		String authority = host.find() ? host.group(1).toLowerCase() : "localhost";
		return target.startsWith("http://" + authority + "/");
	}

	/**
	 * A client asking for a page (not the API) that accepts HTML ({@code text/html},
	 * {@code text/*}): the HTML error page is an acceptable answer.
	 */
	private static boolean wantsPage(String request) {
		int space = request.indexOf(' ');
		// the app's own rule (ProblemErrorController, StudyProblemHandler): the path is
		// /api or under /api/
		boolean api = space >= 0 && (request.startsWith("/api/", space + 1) || request.startsWith("/api ", space + 1)
				|| request.startsWith("/api?", space + 1));
		return !api && Pattern.compile("(?im)^accept:[^\\r\\n]*text/(html|\\*)").matcher(request).find();
	}

	private String next(Random r, List<Session> anonymous, List<Session> signedIn) {
		String method = pick(r, METHODS);
		boolean form = method.equals("POST") || (r.nextInt(10) == 0 && !method.equals("GET"));
		String path = (form && r.nextInt(4) != 0) ? (r.nextInt(3) == 0 ? "/logout" : "/login") : pick(r, PAGES);
		StringBuilder target = new StringBuilder(path);
		for (int i = (r.nextInt(4) == 0) ? 1 + r.nextInt(3) : 0; i > 0; i--) {
			int end = (target.indexOf("?") < 0) ? target.length() : target.indexOf("?");
			target.insert(1 + r.nextInt(end), pick(r, PATH_PIECES));
		}
		if (r.nextInt(3) == 0) {
			target.append((target.indexOf("?") < 0) ? '?' : '&');
			for (int i = 1 + r.nextInt(3); i > 0; i--) {
				String value = pick(r, JUNK); // raw now and then: Tomcat refuses some (<
												// > { } | ")
				target.append(pick(r, QUERY_KEYS))
					.append('=')
					.append((r.nextInt(4) == 0) ? value : URLEncoder.encode(value, StandardCharsets.UTF_8))
					.append((i > 1) ? "&" : "");
			}
		}
		String version = (r.nextInt(40) == 0) ? pick(r, VERSIONS) : "HTTP/1.1";
		List<String> headers = new ArrayList<>();
		int host = r.nextInt(25);
		if (host == 0) {
			headers.add("Host: " + pick(r, new String[] { "evil.example", "a b", "", "[::1", "x".repeat(300) }));
		}
		else if (host == 1) {
			headers.add("Host: a");
			headers.add("Host: b");
		}
		else if (host != 2) {
			headers.add("Host: localhost");
		}
		headers.add("Connection: close");
		if (r.nextInt(5) != 0) {
			headers.add("Accept: " + pick(r, ACCEPTS));
		}
		Session session = switch (r.nextInt(6)) {
			case 0, 1 -> null;
			case 2, 3 -> pick(r, anonymous);
			case 4 -> pick(r, signedIn);
			default -> new Session(pick(r, new String[] { "JSESSIONID=garbage", "JSESSIONID=" + "A".repeat(5000),
					"JSESSIONID=%%%", "JSESSIONID=a; JSESSIONID=b", "JSESSIONID=" }), "forged");
		};
		if (session != null) {
			headers.add("Cookie: " + session.cookie());
		}
		for (int i = r.nextInt(3); i > 0; i--) {
			headers.add(pick(r, EXTRA_HEADERS));
		}
		String body = "";
		if (form) {
			headers.add("Content-Type: "
					+ ((r.nextInt(5) == 0) ? pick(r, CONTENT_TYPES) : "application/x-www-form-urlencoded"));
			body = formBody(r, path, session, anonymous);
			body = frame(r, headers, body);
		}
		StringBuilder sb = new StringBuilder(method).append(' ').append(target);
		if (!version.isEmpty()) {
			sb.append(' ').append(version);
		}
		sb.append("\r\n");
		headers.forEach((h) -> sb.append(h).append("\r\n"));
		return sb.append("\r\n").append(body).toString();
	}

	private static String formBody(Random r, String path, Session session, List<Session> anonymous) {
		List<String> fields = new ArrayList<>();
		if (path.startsWith("/login") || r.nextBoolean()) {
			int u = r.nextInt(4);
			String user = (u < 2) ? "user" + (1 + r.nextInt(1000)) : (u == 2) ? "victim" : pick(r, USERS);
			fields.add("username=" + user);
			fields.add("password=" + (r.nextBoolean() ? "password" : pick(r, JUNK)));
		}
		switch (r.nextInt(9)) {
			case 0 -> {
			} // no token
			case 1 -> fields.add("_csrf=forged");
			case 2 -> fields.add("_csrf=" + pick(r, anonymous).token()); // another
																			// session's
			case 3 -> fields.add("_csrf=" + "x".repeat(10_000));
			case 4 -> fields.add("_csrf=%zz");
			default -> {
				if (session != null) {
					fields.add("_csrf=" + session.token());
				}
			}
		}
		for (int i = r.nextInt(3); i > 0; i--) {
			fields.add(pick(r, EXTRA_FIELDS));
		}
		java.util.Collections.shuffle(fields, r);
		return String.join("&", fields);
	}

	/** Content-Length or chunked framing, correct most of the time. */
	private static String frame(Random r, List<String> headers, String body) {
		int length = body.length();
		switch (r.nextInt(30)) {
			case 0 -> headers.add("Content-Length: " + (length + 1 + r.nextInt(20))); // stalls
																						// until
																						// the
																						// read
																						// timeout
			case 1 -> headers.add("Content-Length: " + Math.max(0, length - 1 - r.nextInt(5)));
			case 2 -> headers.add("Content-Length: abc");
			case 3 -> {
				headers.add("Content-Length: " + length);
				headers.add("Content-Length: " + (length + 3));
			}
			case 4 -> {
				headers.add("Transfer-Encoding: chunked");
				return Integer.toHexString(length) + "\r\n" + body + "\r\nZZ\r\n"; // a
																					// malformed
																					// chunk
																					// size
			}
			case 5, 6 -> {
				headers.add("Transfer-Encoding: chunked");
				return (body.isEmpty() ? "" : Integer.toHexString(length) + "\r\n" + body + "\r\n") + "0\r\n\r\n";
			}
			case 7 -> {
				String big = "a=" + "b".repeat(17_000); // over the test's 16 KB body
														// limit
				headers.add("Content-Length: " + big.length());
				return big;
			}
			default -> headers.add("Content-Length: " + length);
		}
		return body;
	}

	private Session newSession() throws IOException {
		String page = get("/login", null);
		return new Session(cookie(page, null), csrf(page));
	}

	private Session signIn(String user) throws IOException {
		Session anonymous = newSession();
		String form = "username=" + user + "&password=password&_csrf=" + anonymous.token();
		String response = RawHttp.exchange(this.port,
				"POST /login HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n" + "Cookie: " + anonymous.cookie()
						+ "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " + form.length()
						+ "\r\n\r\n" + form,
				5_000);
		assertThat(response).as("sign-in of " + user)
			.startsWith("HTTP/1.1 302 ")
			.containsIgnoringCase("location: /\r\n");
		String cookie = cookie(response, anonymous.cookie());
		return new Session(cookie, csrf(get("/", cookie)));
	}

	private String get(String path, String cookie) throws IOException {
		return RawHttp.exchange(this.port, "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
				+ ((cookie != null) ? "Cookie: " + cookie + "\r\n" : "") + "\r\n", 5_000);
	}

	private static String cookie(String response, String otherwise) {
		Matcher m = SESSION_COOKIE.matcher(response);
		return m.find() ? m.group(1) : otherwise;
	}

	private static String csrf(String page) {
		Matcher m = CSRF_INPUT.matcher(page);
		assertThat(m.find()).as("a page with a _csrf input").isTrue();
		return m.group(1);
	}

	/**
	 * The final status code ("100 Continue" skipped), or "closed" when no answer came
	 * before the close.
	 */
	private static String outcome(String response) {
		int from = finalResponse(response);
		Matcher m = STATUS.matcher(response);
		return (m.find(from) && m.start() == from) ? m.group(1) : "closed";
	}

	/** Where the final answer starts: after any interim "100 Continue" head. */
	private static int finalResponse(String response) {
		int from = 0;
		while (response.startsWith("HTTP/1.1 100 ", from)) {
			int end = response.indexOf("\r\n\r\n", from);
			if (end < 0) {
				break;
			}
			from = end + 4;
		}
		return from;
	}

	/** The final answer's header block. */
	private static String headerBlock(String response) {
		int from = finalResponse(response);
		int end = response.indexOf("\r\n\r\n", from);
		return (end < 0) ? response.substring(from) : response.substring(from, end);
	}

	private static boolean isHttp1x(String request) {
		String line = request.substring(0, Math.max(0, request.indexOf("\r\n")));
		return line.endsWith(" HTTP/1.1") || line.endsWith(" HTTP/1.0");
	}

	private static String printable(String s, int max) {
		StringBuilder out = new StringBuilder();
		for (char c : s.replace("\r", "\\r").replace("\n", "\\n").toCharArray()) {
			out.append((c < 0x20 || c > 0x7e) ? String.format("\\x%02x", (int) c) : String.valueOf(c));
			if (out.length() > max) {
				return out + "…";
			}
		}
		return out.toString();
	}

	private static <T> T pick(Random r, T[] values) {
		return values[r.nextInt(values.length)];
	}

	private static <T> T pick(Random r, List<T> values) {
		return values.get(r.nextInt(values.size()));
	}

}
