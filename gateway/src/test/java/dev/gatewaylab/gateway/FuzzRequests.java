package dev.gatewaylab.gateway;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random HTTP/1.x requests for {@link GatewayFuzzTests}, as text to write on a socket
 * (ISO-8859-1): mostly plausible, each with a few mutations of its method, request
 * target, version, headers, framing or body.
 */
final class FuzzRequests {

	private static final String[] METHODS = { "GET", "GET", "GET", "GET", "GET", "POST", "POST", "POST", "PUT",
			"DELETE", "PATCH", "HEAD", "OPTIONS", "CONNECT", "TRACE", "PROBE", "get", "G<T", "M-SEARCH", "PRI" };

	private static final String[] PATHS = { "/api/studies/1", "/api/studies", "/api/studies?page=0&size=5",
			"/api/studies/1/members", "/", "/login", "/css/app.css", "/favicon.ico", "/nope", "/actuator/health",
			"/api", "/error" };

	private static final String[] TARGET_PIECES = { "%", "%z", "%zz", "%2F", "%2f", "%2e%2e", "%00", "%C3%A9", "%FF",
			"..", "//", "/../", "/./", "\\", "{", "}", "|", "\"", "<", ">", "^", "`", "[", "]", "#", "?", ";", "*", "@",
			":", "é", "\u00ff", "\u0080", "\u0001", "\u007f", "\t", "~", "+", "%20", "&", "=" };

	private static final String[] WHOLE_TARGETS = { "*", "example.com:443", "http://example.com/api/studies/1",
			"https://x", "http://", "HTTP://a/b", "api/studies/1", "//api//studies", "", "/%", "http:/a", "?a=1",
			"#frag", "/api/studies/1#frag", "mailto:a@b" };

	private static final String[] VERSIONS = { "HTTP/1.0", "HTTP/2.0", "HTTP/1.2", "HTTP/0.9", "HTTPS/1.1", "HTTP/1",
			"", "http/1.1", "HTTP/1.1 extra", "HTTP/11" };

	private static final String[] HOSTS = { "localhost", "127.0.0.1:8080", "[::1]:8080", "a b", "", "ex<ample>",
			"h:99999", "very.long." + "x".repeat(300), "_", "é" };

	private static final String[] CONTENT_TYPES = { "application/json", "application/json; charset=utf-8", "text/plain",
			"*/*", "application/*", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "", ";;;",
			"application/json; charset=nope", "a/b/c" };

	private static final String[] EXTRA_HEADERS = { "X-Request-Id: fuzz", "X-Request-Id: a\u0001b", "Accept: */*",
			"Accept: text/html", "Accept: application/xml", "Bad Header: x", "X-Empty:", ": novalue", "NoColon",
			"X-Fold: a\r\n  continued", "Ünïcode: v", "X-Forwarded-For: unknown", "X-Forwarded-For: 1.2.3.4, ::1, junk",
			"Forwarded: for=\"[::1]\";proto=http", "Expect: 100-continue", "Expect: bogus",
			"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13",
			"Upgrade: h2c", "Accept-Encoding: gzip, br, zstd", "Cookie: SESSION=%%%", "Range: bytes=5-1",
			"Origin: null", "Content-Encoding: gzip", "Transfer-Encoding: gzip", "X-Http-Method-Override: DELETE",
			"Max-Forwards: -1" };

	private static final String[] BODIES = {
			"{\"title\":\"t\",\"description\":\"d\",\"category\":\"backend\",\"capacity\":5}", "{", "[]", "null",
			"{\"capacity\":1e400}", "{\"title\":\"\u0000\"}", "\u00ff\u00fe", "a=b&c=%zz", "",
			"{\"title\":" + "[".repeat(200) + "}" };

	private FuzzRequests() {
	}

	static String next(Random r) {
		String eol = r.nextInt(20) == 0 ? "\n" : "\r\n";
		String method = pick(r, METHODS);
		String target = target(r);
		String version = r.nextInt(15) == 0 ? pick(r, VERSIONS) : "HTTP/1.1";
		List<String> headers = new ArrayList<>();
		int hostCase = r.nextInt(12);
		if (hostCase == 0) {
			headers.add("Host: " + pick(r, HOSTS));
		}
		else if (hostCase == 1) {
			headers.add("Host: a");
			headers.add("Host: b");
		}
		else if (hostCase != 2) {
			headers.add("Host: localhost");
		}
		if (r.nextInt(20) != 0) {
			headers.add("Connection: close");
		}
		for (int i = r.nextInt(4); i > 0; i--) {
			headers.add(pick(r, EXTRA_HEADERS));
		}
		if (r.nextInt(40) == 0) {
			headers.add("X-Long: " + "a".repeat(r.nextInt(20_000)));
		}
		if (r.nextInt(60) == 0) {
			for (int i = 0; i < 120; i++) {
				headers.add("X-Many-" + i + ": v");
			}
		}
		boolean withBody = method.equals("POST") || method.equals("PUT") || method.equals("PATCH")
				|| r.nextInt(10) == 0;
		String body = "";
		if (withBody) {
			headers.add("Content-Type: " + (r.nextInt(4) == 0 ? pick(r, CONTENT_TYPES) : "application/json"));
			body = mutate(r, pick(r, BODIES));
			if (r.nextInt(50) == 0) {
				body = "x".repeat(5_000 + r.nextInt(3_000)); // over the test's 4 KB limit
			}
			body = frame(r, headers, body, eol);
		}
		StringBuilder sb = new StringBuilder(method).append(' ').append(target);
		if (!version.isEmpty()) {
			sb.append(' ').append(version);
		}
		sb.append(eol);
		for (String h : headers) {
			sb.append(h.replace("\r\n", eol)).append(eol);
		}
		return sb.append(eol).append(body).toString();
	}

	private static String target(Random r) {
		int c = r.nextInt(20);
		if (c == 0) {
			return pick(r, WHOLE_TARGETS);
		}
		if (c == 1) {
			return "/" + "a".repeat(r.nextInt(10_000)); // past Netty's 4,096-byte request
														// line sometimes: 414
		}
		StringBuilder t = new StringBuilder(pick(r, PATHS));
		for (int i = r.nextInt(4); i > 0; i--) {
			t.insert(1 + r.nextInt(t.length()), pick(r, TARGET_PIECES));
		}
		return t.toString();
	}

	/** Content-Length or chunked framing of the body, correct most of the time. */
	private static String frame(Random r, List<String> headers, String body, String eol) {
		int c = r.nextInt(24);
		int length = body.length();
		switch (c) {
			case 0 -> headers.add("Content-Length: " + (length + 1 + r.nextInt(20))); // stalls:
																						// 408
																						// after
																						// the
																						// read
																						// timeout
			case 1 -> headers.add("Content-Length: " + Math.max(0, length - 1 - r.nextInt(5)));
			case 2 -> headers.add("Content-Length: -" + length);
			case 3 -> headers.add("Content-Length: abc");
			case 4 -> {
				headers.add("Content-Length: " + length);
				headers.add("Content-Length: " + (length + 3));
			}
			case 5 -> {
				headers.add("Content-Length: " + length);
				headers.add("Transfer-Encoding: chunked");
				return chunked(body, eol);
			}
			case 6 -> {
				headers.add("Transfer-Encoding: chunked");
				return Integer.toHexString(length) + eol + body + eol + "ZZ" + eol; // a
																					// malformed
																					// chunk
																					// size
			}
			case 7 -> {
				headers.add("Transfer-Encoding: chunked, gzip");
				return chunked(body, eol);
			}
			case 8 -> {
				headers.add("Transfer-Encoding: chunked");
				return Integer.toHexString(length + 7) + eol + body + eol + "0" + eol + eol; // size
																								// larger
																								// than
																								// the
																								// data
			}
			case 9, 10, 11 -> {
				headers.add("Transfer-Encoding: chunked");
				return chunked(body, eol);
			}
			default -> headers.add("Content-Length: " + length);
		}
		return body;
	}

	private static String chunked(String body, String eol) {
		return (body.isEmpty() ? "" : Integer.toHexString(body.length()) + eol + body + eol) + "0" + eol + eol;
	}

	private static String mutate(Random r, String body) {
		if (body.isEmpty() || r.nextInt(3) != 0) {
			return body;
		}
		StringBuilder b = new StringBuilder(body);
		for (int i = 1 + r.nextInt(3); i > 0; i--) {
			int at = r.nextInt(b.length() + 1);
			b.insert(at, (char) r.nextInt(256));
		}
		return b.toString();
	}

	private static String pick(Random r, String[] values) {
		return values[r.nextInt(values.length)];
	}

}
