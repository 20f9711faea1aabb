package dev.gatewaylab.monolith;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Random browser requests for {@link MonolithFuzzTests}, as text to write on a socket
 * (ISO-8859-1): methods, paths and path tricks, query strings, headers (Accept, cookies,
 * Host, forged proxy headers, ranges), form bodies on {@code /login} and {@code /logout}
 * with the CSRF token missing, forged, from another session or valid, huge fields, broken
 * escapes, wrong content types and framing.
 */
final class MonolithFuzzRequests {

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

	private MonolithFuzzRequests() {
	}

	static String next(Random r, List<BrowserSession> anonymous, List<BrowserSession> signedIn) {
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
				// raw now and then: Tomcat refuses some (< > { } | ")
				String value = pick(r, JUNK);
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
		BrowserSession session = switch (r.nextInt(6)) {
			case 0, 1 -> null;
			case 2, 3 -> pick(r, anonymous);
			case 4 -> pick(r, signedIn);
			default -> new BrowserSession(pick(r, new String[] { "JSESSIONID=garbage", "JSESSIONID=" + "A".repeat(5000),
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

	private static String formBody(Random r, String path, BrowserSession session, List<BrowserSession> anonymous) {
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
			// another session's
			case 2 -> fields.add("_csrf=" + pick(r, anonymous).token());
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
		Collections.shuffle(fields, r);
		return String.join("&", fields);
	}

	/** Content-Length or chunked framing, correct most of the time. */
	private static String frame(Random r, List<String> headers, String body) {
		int length = body.length();
		switch (r.nextInt(30)) {
			// stalls until the read timeout
			case 0 -> headers.add("Content-Length: " + (length + 1 + r.nextInt(20)));
			case 1 -> headers.add("Content-Length: " + Math.max(0, length - 1 - r.nextInt(5)));
			case 2 -> headers.add("Content-Length: abc");
			case 3 -> {
				headers.add("Content-Length: " + length);
				headers.add("Content-Length: " + (length + 3));
			}
			case 4 -> {
				headers.add("Transfer-Encoding: chunked");
				// a malformed chunk size
				return Integer.toHexString(length) + "\r\n" + body + "\r\nZZ\r\n";
			}
			case 5, 6 -> {
				headers.add("Transfer-Encoding: chunked");
				return (body.isEmpty() ? "" : Integer.toHexString(length) + "\r\n" + body + "\r\n") + "0\r\n\r\n";
			}
			case 7 -> {
				// over the test's 16 KB body limit
				String big = "a=" + "b".repeat(17_000);
				headers.add("Content-Length: " + big.length());
				return big;
			}
			default -> headers.add("Content-Length: " + length);
		}
		return body;
	}

	private static <T> T pick(Random r, T[] values) {
		return values[r.nextInt(values.length)];
	}

	private static <T> T pick(Random r, List<T> values) {
		return values.get(r.nextInt(values.size()));
	}

}
