package dev.gatewaylab.monolith;

import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gatewaylab.testsupport.RawHttp;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A browser's session with the monolith over raw sockets: its session cookie and a CSRF
 * token rendered for it (any masked value of the session's token is valid).
 *
 * @param cookie the {@code JSESSIONID=…} cookie
 * @param token a {@code _csrf} value for this session
 */
public record BrowserSession(String cookie, String token) {

	private static final Pattern CSRF_INPUT = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

	private static final Pattern SESSION_COOKIE = Pattern.compile("(?i)set-cookie: (JSESSIONID=[^;\\r\\n]+)");

	/** A new anonymous session, from the login page. */
	public static BrowserSession open(int port) throws IOException {
		String page = get(port, "/login", null);
		return new BrowserSession(cookie(page, null), csrf(page));
	}

	/** A session signed in as {@code user} (demo password); fails the test otherwise. */
	public static BrowserSession signIn(int port, String user) throws IOException {
		BrowserSession anonymous = open(port);
		String response = anonymous.postLogin(port, "/login", "username=" + user + "&password=password");
		assertThat(response).as("sign-in of " + user)
			.startsWith("HTTP/1.1 302 ")
			.containsIgnoringCase("location: /\r\n");
		String cookie = cookie(response, anonymous.cookie());
		return new BrowserSession(cookie, csrf(get(port, "/", cookie)));
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

	private static String cookie(String response, String otherwise) {
		Matcher m = SESSION_COOKIE.matcher(response);
		return m.find() ? m.group(1) : otherwise;
	}

	private static String csrf(String page) {
		Matcher m = CSRF_INPUT.matcher(page);
		assertThat(m.find()).as("a page with a _csrf input").isTrue();
		return m.group(1);
	}

}
