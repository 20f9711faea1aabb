package dev.gatewaylab.testsupport;

/**
 * Requests no well-behaved client sends, as text for {@link RawHttp} — the cases every
 * app of the lab must answer with a 4xx problem+json (never a 500, a hang or an HTML
 * page). Each request names {@code Host: a} and asks the server to close the connection
 * after its answer, so that {@link RawHttp#exchange} returns at once.
 */
public final class MalformedRequests {

	private static final String CLOSE = "Connection: close\r\n";

	private MalformedRequests() {
	}

	/** A well-formed {@code GET}, with extra header lines ({@code "Name: value"}). */
	public static String get(String target, String... headers) {
		return request("GET", target, String.join("", lines(headers)), "");
	}

	/**
	 * A Windows-style traversal below {@code path}: a raw backslash is no URI character,
	 * so a server refuses the request line itself (Tomcat before any application code).
	 */
	public static String backslashTraversal(String path) {
		return get(path + "/..\\..\\etc\\passwd");
	}

	/**
	 * A path parameter ({@code ;a=%zz}) with a broken %-escape: Tomcat passes path
	 * parameters on undecoded, and Spring's path parser threw on them.
	 */
	public static String badEscapeInPathParameter(String path) {
		return get(path + ";a=%zz");
	}

	/** An {@code Accept} header that does not parse ({@code a/b;q=x}). */
	public static String malformedAccept(String target) {
		return get(target, "Accept: a/b;q=x");
	}

	/** A form body with a broken %-escape ({@code a=%zz}). */
	public static String formWithBrokenEscape(String method, String path) {
		String body = "a=%zz";
		return request(method, path,
				"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + body.length() + "\r\n", body);
	}

	/**
	 * A {@code GET} with {@code count} header lines in all ({@code Host} and
	 * {@code Connection} among them).
	 */
	public static String headerLines(String target, int count) {
		StringBuilder headers = new StringBuilder();
		for (int i = 1; i <= count - 2; i++) {
			headers.append("X-Header-").append(i).append(": v\r\n");
		}
		return request("GET", target, headers.toString(), "");
	}

	/** A {@code GET} with one header line of {@code bytes} bytes (without its CRLF). */
	public static String largeHeader(String target, int bytes) {
		String name = "X-Large: ";
		return request("GET", target, name + "a".repeat(bytes - name.length()) + "\r\n", "");
	}

	/** HTTP/1.1 without a {@code Host} header. */
	public static String withoutHost(String target) {
		return "GET " + target + " HTTP/1.1\r\n" + CLOSE + "\r\n";
	}

	/** Two {@code Host} headers. */
	public static String twoHosts(String target) {
		return "GET " + target + " HTTP/1.1\r\nHost: a\r\nHost: b\r\n" + CLOSE + "\r\n";
	}

	/** A protocol version no server speaks ({@code HTTP/9.9}): 505. */
	public static String unknownVersion(String target) {
		return "GET " + target + " HTTP/9.9\r\nHost: a\r\n" + CLOSE + "\r\n";
	}

	/** A chunked body whose chunk size is no hex number. */
	public static String malformedChunk(String path) {
		return "POST " + path + " HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
				+ "Transfer-Encoding: chunked\r\n" + CLOSE + "\r\nZZ\r\n";
	}

	/**
	 * Whether the request line names HTTP/1.0 or HTTP/1.1 (for any other, 505 is right).
	 */
	public static boolean isHttp1x(String request) {
		int eol = request.indexOf('\n');
		String line = ((eol < 0) ? request : request.substring(0, eol)).replace("\r", "");
		return line.endsWith(" HTTP/1.1") || line.endsWith(" HTTP/1.0");
	}

	private static String request(String method, String target, String headers, String body) {
		return method + " " + target + " HTTP/1.1\r\nHost: a\r\n" + headers + CLOSE + "\r\n" + body;
	}

	private static String[] lines(String[] headers) {
		String[] lines = new String[headers.length];
		for (int i = 0; i < headers.length; i++) {
			lines[i] = headers[i] + "\r\n";
		}
		return lines;
	}

}
