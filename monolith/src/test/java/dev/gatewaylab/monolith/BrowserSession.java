package dev.gatewaylab.monolith;

import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gatewaylab.testsupport.RawHttp;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A browser's session with the monolith over raw sockets: its cookies and a CSRF token
 * rendered for it (any masked value of the cookie's token is valid). An anonymous one has
 * only the CSRF token's cookie ({@code XSRF-TOKEN}: no session exists before a sign-in);
 * a signed-in one has the session cookie too.
 *
 * @param cookie the {@code Cookie} header value: {@code XSRF-TOKEN=…}, and
 * {@code JSESSIONID=…} once signed in
 * @param token a {@code _csrf} value for this browser
 */
public record BrowserSession(String cookie, String token) {

	private static final Pattern CSRF_INPUT = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

	private static final Pattern SESSION_COOKIE = Pattern.compile("(?i)set-cookie: (JSESSIONID=[^;\\r\\n]+)");

	private static final Pattern CSRF_COOKIE = Pattern.compile("(?i)set-cookie: (XSRF-TOKEN=[^;\\r\\n]+)");

	/** A new anonymous browser, from the login page. */
	public static BrowserSession open(int port) throws IOException {
		String page = get(port, "/login", null);
		return new BrowserSession(cookie(CSRF_COOKIE, page, null), csrf(page));
	}

	/** A session signed in as {@code user} (demo password); fails the test otherwise. */
	public static BrowserSession signIn(int port, String user) throws IOException {
		BrowserSession anonymous = open(port);
		String response = anonymous.postLogin(port, "/login", "username=" + user + "&password=password");
		assertThat(response).as("sign-in of " + user)
			.startsWith("HTTP/1.1 302 ")
			.containsIgnoringCase("location: /\r\n");
		// the sign-in makes the session and drops the CSRF token: the next page brings a
		// new one
		String session = cookie(SESSION_COOKIE, response, null);
		assertThat(session).as("the session cookie of the sign-in").isNotNull();
		String home = get(port, "/", session);
		return new BrowserSession(session + "; " + cookie(CSRF_COOKIE, home, null), csrf(home));
	}

	/**
	 * {@code POST} of a login form (already URL-encoded fields, this session's CSRF token
	 * added) to {@code path}: the raw answer.
	 */
	public String postLogin(int port, String path, String fields) throws IOException {
		String form = fields + "&_csrf=" + this.token;
		return RawHttp.exchange(port,
				"POST " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nCookie: " + this.cookie
						+ "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " + form.length()
						+ "\r\n\r\n" + form,
				5_000);
	}

	/** {@code GET} of a page, with a session cookie or none: the raw answer. */
	public static String get(int port, String path, String cookie) throws IOException {
		return RawHttp.exchange(port, "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
				+ ((cookie != null) ? "Cookie: " + cookie + "\r\n" : "") + "\r\n", 5_000);
	}

	private static String cookie(Pattern cookie, String response, String otherwise) {
		Matcher m = cookie.matcher(response);
		return m.find() ? m.group(1) : otherwise;
	}

	private static String csrf(String page) {
		Matcher m = CSRF_INPUT.matcher(page);
		assertThat(m.find()).as("a page with a _csrf input").isTrue();
		return m.group(1);
	}

}
