package dev.gatewaylab.gateway.server;

import java.util.Iterator;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessageDecoderResult;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

/**
 * What RFC 9112 says a server must refuse and Netty lets through, as pure functions of a
 * decoded request head: an HTTP version other than 1.0/1.1 (505), an HTTP/1.1 request
 * without {@code Host}, with several, or with a value that is no {@code host[:port]}
 * (400), a request target that is no URI (400), a path with an encoded slash, backslash
 * or NUL, or with a dot or empty segment ({@code /../}, {@code /./}, {@code //}) (400),
 * TRACE and CONNECT (405), more header lines or header bytes than the upstreams take once
 * the gateway has added its own (431).
 * <p>
 * Cost per valid request: one header iterator, a scan of the Host value's and the path's
 * characters, a sum of the sizes Netty's decoder recorded. Nothing is copied.
 */
final class RequestChecks {

	/**
	 * Characters a request target may hold as they are (RFC 3986: unreserved, sub-delims,
	 * ":@/?%").
	 */
	private static final boolean[] TARGET_CHARS = new boolean[128];

	static {
		for (char c : ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/?%")
			.toCharArray()) {
			TARGET_CHARS[c] = true;
		}
	}

	private RequestChecks() {
	}

	/**
	 * The status to refuse the request with, or null when it is acceptable.
	 * @param maxHeaderCount header lines accepted at most
	 * @param maxHeaderBytes request line and header section accepted at most, as
	 * {@link #headBytes(HttpRequest)} counts them
	 */
	static HttpResponseStatus problem(HttpRequest request, int maxHeaderCount, int maxHeaderBytes) {
		HttpVersion version = request.protocolVersion();
		boolean http11 = version == HttpVersion.HTTP_1_1;
		if (!http11 && version != HttpVersion.HTTP_1_0) {
			if (version.majorVersion() != 1 || version.minorVersion() > 1) {
				return HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED;
			}
		}
		HttpMethod method = request.method();
		if (method == HttpMethod.TRACE || method == HttpMethod.CONNECT) {
			// TRACE echoes headers back (cross-site tracing); CONNECT asks for a tunnel:
			// no route wants either
			return HttpResponseStatus.METHOD_NOT_ALLOWED;
		}
		String uri = request.uri();
		if (!isRequestTarget(uri, method) || hasForbiddenEscape(uri) || hasDotOrEmptySegment(uri)) {
			return HttpResponseStatus.BAD_REQUEST;
		}
		if (request.headers().size() > maxHeaderCount || headBytes(request) > maxHeaderBytes) {
			// forwarded, it would be refused by the upstream (Tomcat: a bare 400)
			return HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
		}
		Iterator<String> hosts = request.headers().valueStringIterator(HttpHeaderNames.HOST);
		if (!hosts.hasNext()) {
			return http11 ? HttpResponseStatus.BAD_REQUEST : null;
		}
		String host = hosts.next();
		return (hosts.hasNext() || !isHostAndPort(host)) ? HttpResponseStatus.BAD_REQUEST : null;
	}

	/**
	 * The request line and header section as an upstream counts them (Tomcat's
	 * maxHttpRequestHeaderSize): every line with its CRLF, and the empty line that ends
	 * them. From the sizes Netty's decoder recorded, nothing is read again; 0 for a
	 * request that was not decoded from bytes.
	 */
	static int headBytes(HttpRequest request) {
		if (request.decoderResult() instanceof HttpMessageDecoderResult sizes) {
			return sizes.initialLineLength() + sizes.headerSize() + 2 * (request.headers().size() + 2);
		}
		return 0;
	}

	/**
	 * An origin-form ({@code /path?query}) or absolute-form ({@code http://host/path})
	 * request target that {@code java.net.URI} accepts, or {@code *} for OPTIONS.
	 * Anything else Spring's request adapter would answer with an empty 400, or route
	 * with a null host. Fast path: a scan of plain characters; anything unusual (a
	 * character outside RFC 3986, a {@code %} escape) is checked by {@code java.net.URI},
	 * as Spring will.
	 */
	static boolean isRequestTarget(String uri, HttpMethod method) {
		if (uri.isEmpty()) {
			return false;
		}
		if (uri.charAt(0) != '/') {
			if (uri.equals("*")) {
				return method == HttpMethod.OPTIONS;
			}
			String lower = uri.regionMatches(true, 0, "http://", 0, 7) ? uri.substring(7)
					: uri.regionMatches(true, 0, "https://", 0, 8) ? uri.substring(8) : null;
			if (lower == null || lower.isEmpty() || lower.charAt(0) == '/') {
				return false;
			}
		}
		for (int i = 0; i < uri.length(); i++) {
			char c = uri.charAt(i);
			if (c >= 128 || !TARGET_CHARS[c] || c == '%') {
				return parses(uri);
			}
		}
		return true;
	}

	private static boolean parses(String uri) {
		try {
			new java.net.URI(uri);
			return true;
		}
		catch (java.net.URISyntaxException ex) {
			return false;
		}
	}

	/**
	 * An encoded {@code /} or {@code \\} or NUL in the path (not the query): it reads as
	 * a different path to each decoder on the way (the actuator answered 500, Tomcat 400
	 * as HTML), so it is refused once, here.
	 */
	static boolean hasForbiddenEscape(String uri) {
		int query = uri.indexOf('?');
		int end = (query < 0) ? uri.length() : query;
		for (int pct = uri.indexOf('%'); pct >= 0 && pct + 2 < end; pct = uri.indexOf('%', pct + 1)) {
			char hi = uri.charAt(pct + 1);
			char lo = Character.toUpperCase(uri.charAt(pct + 2));
			if ((hi == '2' && lo == 'F') || (hi == '5' && lo == 'C') || (hi == '0' && lo == '0')) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A {@code .} or {@code ..} segment (a dot also as {@code %2e}, a segment also
	 * followed by {@code ;params}) or an empty one ({@code //}) in the path, not the
	 * query. The route predicates match the path as sent, the upstream normalises it:
	 * {@code /api/studies/../../x} matched the study-service route and reached
	 * study-service as {@code /x}. Browsers and HTTP clients remove dot segments before
	 * sending (RFC 3986 §5.2.4), so only a probe carries one. A trailing slash (an empty
	 * last segment) is fine.
	 */
	static boolean hasDotOrEmptySegment(String uri) {
		int start = 0;
		if (uri.charAt(0) != '/') { // absolute-form: the path starts after
									// scheme://authority
			int scheme = uri.indexOf("://");
			start = (scheme < 0) ? -1 : uri.indexOf('/', scheme + 3);
			if (start < 0) {
				return false;
			}
		}
		int end = start;
		while (end < uri.length() && uri.charAt(end) != '?' && uri.charAt(end) != '#') {
			end++;
		}
		for (int slash = start; slash < end;) {
			int next = uri.indexOf('/', slash + 1);
			if (next < 0 || next > end) {
				next = end;
			}
			if (next == slash + 1 && next < end) {
				return true; // "//"
			}
			int params = uri.indexOf(';', slash + 1);
			if (isDots(uri, slash + 1, (params >= 0 && params < next) ? params : next)) {
				return true;
			}
			slash = next;
		}
		return false;
	}

	/** {@code .} or {@code ..}, each dot written as itself or as {@code %2e}. */
	private static boolean isDots(String uri, int from, int to) {
		int dots = 0;
		for (int i = from; i < to; dots++) {
			if (uri.charAt(i) == '.') {
				i++;
			}
			else if (i + 3 <= to && uri.regionMatches(true, i, "%2e", 0, 3)) {
				i += 3;
			}
			else {
				return false;
			}
		}
		return dots == 1 || dots == 2;
	}

	/**
	 * {@code uri-host [ ":" port ]}: reg-name / IPv4 / IP-literal characters only (RFC
	 * 3986), not empty.
	 */
	static boolean isHostAndPort(String host) {
		int length = host.length();
		if (length == 0 || length > 255 + 6) {
			return false;
		}
		for (int i = 0; i < length; i++) {
			char c = host.charAt(i);
			boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'
					|| c == '.' || c == '_' || c == '~' || c == ':' || c == '[' || c == ']' || c == '%' || c == '!'
					|| c == '$' || c == '&' || c == '\'' || c == '(' || c == ')' || c == '*' || c == '+' || c == ','
					|| c == ';' || c == '=';
			if (!allowed) {
				return false;
			}
		}
		return true;
	}

}
