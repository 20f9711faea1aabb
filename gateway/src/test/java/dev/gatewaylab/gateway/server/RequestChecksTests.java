package dev.gatewaylab.gateway.server;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Each check of a request head on its own, without a server. */
class RequestChecksTests {

	@Test
	void aPlainRequestPasses() {
		assertThat(problem(request(HttpMethod.GET, "/api/studies/1", "Host", "localhost:8080"))).isNull();
		assertThat(problem(new DefaultHttpRequest(HttpVersion.HTTP_1_0, HttpMethod.GET, "/api/studies/1")))
			.as("HTTP/1.0 needs no Host")
			.isNull();
	}

	@Test
	void versionsOtherThanHttp10And11Are505() {
		HttpRequest request = new DefaultHttpRequest(HttpVersion.valueOf("HTTP/9.9"), HttpMethod.GET, "/");
		request.headers().set("Host", "a");
		assertThat(problem(request)).isEqualTo(HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED);
		request = new DefaultHttpRequest(HttpVersion.valueOf("HTTP/1.2"), HttpMethod.GET, "/");
		request.headers().set("Host", "a");
		assertThat(problem(request)).isEqualTo(HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED);
	}

	@Test
	void traceAndConnectAre405() {
		assertThat(problem(request(HttpMethod.TRACE, "/", "Host", "a")))
			.isEqualTo(HttpResponseStatus.METHOD_NOT_ALLOWED);
		assertThat(problem(request(HttpMethod.CONNECT, "example.com:443", "Host", "example.com:443")))
			.isEqualTo(HttpResponseStatus.METHOD_NOT_ALLOWED);
	}

	@Test
	void http11NeedsExactlyOneValidHost() {
		assertThat(problem(request(HttpMethod.GET, "/"))).isEqualTo(HttpResponseStatus.BAD_REQUEST);
		assertThat(problem(request(HttpMethod.GET, "/", "Host", "a", "Host", "b")))
			.isEqualTo(HttpResponseStatus.BAD_REQUEST);
		assertThat(problem(request(HttpMethod.GET, "/", "Host", "a b<>"))).isEqualTo(HttpResponseStatus.BAD_REQUEST);
	}

	@Test
	void headerLinesOverTheLimitAre431() {
		StringBuilder head = new StringBuilder("GET / HTTP/1.1\r\nHost: a\r\n");
		for (int i = 1; i < MAX_HEADER_COUNT; i++) {
			head.append("X-H").append(i).append(": v\r\n");
		}
		assertThat(problem(decode(head + "\r\n"))).isNull();
		assertThat(problem(decode(head + "X-One-Too-Many: v\r\n\r\n")))
			.isEqualTo(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE);
	}

	@Test
	void theHeadIsCountedAsAnUpstreamCountsIt() {
		String head = "GET /abc HTTP/1.1\r\nHost: a\r\nX: yz\r\n\r\n";
		assertThat(RequestChecks.headBytes(decode(head))).isEqualTo(head.length());
		assertThat(RequestChecks.headBytes(request(HttpMethod.GET, "/", "Host", "a"))).as("not decoded").isZero();
	}

	@Test
	void aHeadOverTheByteLimitIs431() {
		String start = "GET /api/studies/1 HTTP/1.1\r\nHost: a\r\nX-Big: ";
		int fits = MAX_HEADER_BYTES - start.length() - 4;
		assertThat(problem(decode(start + "v".repeat(fits) + "\r\n\r\n"))).isNull();
		assertThat(problem(decode(start + "v".repeat(fits + 1) + "\r\n\r\n")))
			.isEqualTo(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE);
		assertThat(problem(decode(start + "v".repeat(8000) + "\r\n\r\n"))).as("one 8,000-byte header")
			.isEqualTo(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE);
	}

	@ParameterizedTest
	@ValueSource(strings = { "/", "/api/studies/1", "/api/studies/1?q=%C3%A9&a=[1]", "/a;v=1",
			"http://localhost/api/studies/1", "HTTPS://localhost:8443/x", "/a%20b" })
	void requestTargetsThatAreUris(String target) {
		assertThat(RequestChecks.isRequestTarget(target, HttpMethod.GET)).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "api/studies/1", "*", "/api/studies/{1}", "/api/studies/1|2", "/a%zz", "/api/\"x\"",
			"/a<b>", "http://", "http:///x", "mailto:a@b", "/a\\b" })
	void requestTargetsThatAreNot(String target) {
		assertThat(RequestChecks.isRequestTarget(target, HttpMethod.GET)).isFalse();
	}

	@Test
	void anAsteriskIsATargetForOptionsOnly() {
		assertThat(RequestChecks.isRequestTarget("*", HttpMethod.OPTIONS)).isTrue();
		assertThat(RequestChecks.isRequestTarget("*", HttpMethod.GET)).isFalse();
	}

	@Test
	void encodedSlashBackslashAndNulInThePathButNotInTheQuery() {
		for (String path : new String[] { "/a%2fb", "/a%2Fb", "/%5c", "/%5C", "/%00", "/x/%2F?q=1" }) {
			assertThat(RequestChecks.hasForbiddenEscape(path)).as(path).isTrue();
		}
		for (String path : new String[] { "/a?next=%2Fa%00", "/a%20b", "/a%2", "/%2e", "/a" }) {
			assertThat(RequestChecks.hasForbiddenEscape(path)).as(path).isFalse();
		}
	}

	@Test
	void dotAndEmptySegmentsInThePathButNotInTheQuery() {
		for (String path : new String[] { "/api/studies/../../actuator", "/api/studies/..", "/./1", "/api//1",
				"/%2e%2e/x", "/%2E%2e/x", "/.%2e/x", "/..;/x", "/a;/../x", "http://a/api/../x", "/1/.?a=1", "//" }) {
			assertThat(RequestChecks.hasDotOrEmptySegment(path)).as(path).isTrue();
		}
		for (String path : new String[] { "/", "/api/studies/1", "/api/studies/1/", "/1?next=../x//y", "/1;v=1", "/...",
				"/.hidden", "/a..b", "http://a/api/studies/1", "http://a", "/1#../x" }) {
			assertThat(RequestChecks.hasDotOrEmptySegment(path)).as(path).isFalse();
		}
	}

	@Test
	void hostAndPortCharacters() {
		for (String host : new String[] { "a", "localhost:8080", "127.0.0.1", "[::1]:8080", "my_host.example",
				"xn--bcher-kva.example" }) {
			assertThat(RequestChecks.isHostAndPort(host)).as(host).isTrue();
		}
		for (String host : new String[] { "", "a b", "a<b>", "a/b", "a\"b", "a@b", "a".repeat(262) }) {
			assertThat(RequestChecks.isHostAndPort(host)).as(host).isFalse();
		}
	}

	/** The defaults: Tomcat's limits (100 lines, 8 KB) less what the gateway adds. */
	static final int MAX_HEADER_COUNT = 95;

	static final int MAX_HEADER_BYTES = 7680;

	static HttpResponseStatus problem(HttpRequest request) {
		return RequestChecks.problem(request, MAX_HEADER_COUNT, MAX_HEADER_BYTES);
	}

	/** A request head as Netty's decoder reads it from the wire. */
	static HttpRequest decode(String head) {
		EmbeddedChannel channel = new EmbeddedChannel(new HttpRequestDecoder());
		channel.writeInbound(Unpooled.copiedBuffer(head, StandardCharsets.ISO_8859_1));
		HttpRequest request = channel.readInbound();
		assertThat(request.decoderResult().isSuccess()).isTrue();
		channel.finishAndReleaseAll();
		return request;
	}

	static HttpRequest request(HttpMethod method, String uri, String... headers) {
		HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, method, uri);
		for (int i = 0; i < headers.length; i += 2) {
			request.headers().add(headers[i], headers[i + 1]);
		}
		return request;
	}

}
