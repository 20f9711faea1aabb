package dev.gatewaylab.gateway.server;

import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
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
		assertThat(RequestChecks.problem(request(HttpMethod.GET, "/api/studies/1", "Host", "localhost:8080"))).isNull();
		assertThat(
				RequestChecks.problem(new DefaultHttpRequest(HttpVersion.HTTP_1_0, HttpMethod.GET, "/api/studies/1")))
			.as("HTTP/1.0 needs no Host")
			.isNull();
	}

	@Test
	void versionsOtherThanHttp10And11Are505() {
		HttpRequest request = new DefaultHttpRequest(HttpVersion.valueOf("HTTP/9.9"), HttpMethod.GET, "/");
		request.headers().set("Host", "a");
		assertThat(RequestChecks.problem(request)).isEqualTo(HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED);
		request = new DefaultHttpRequest(HttpVersion.valueOf("HTTP/1.2"), HttpMethod.GET, "/");
		request.headers().set("Host", "a");
		assertThat(RequestChecks.problem(request)).isEqualTo(HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED);
	}

	@Test
	void traceAndConnectAre405() {
		assertThat(RequestChecks.problem(request(HttpMethod.TRACE, "/", "Host", "a")))
			.isEqualTo(HttpResponseStatus.METHOD_NOT_ALLOWED);
		assertThat(RequestChecks.problem(request(HttpMethod.CONNECT, "example.com:443", "Host", "example.com:443")))
			.isEqualTo(HttpResponseStatus.METHOD_NOT_ALLOWED);
	}

	@Test
	void http11NeedsExactlyOneValidHost() {
		assertThat(RequestChecks.problem(request(HttpMethod.GET, "/"))).isEqualTo(HttpResponseStatus.BAD_REQUEST);
		assertThat(RequestChecks.problem(request(HttpMethod.GET, "/", "Host", "a", "Host", "b")))
			.isEqualTo(HttpResponseStatus.BAD_REQUEST);
		assertThat(RequestChecks.problem(request(HttpMethod.GET, "/", "Host", "a b<>")))
			.isEqualTo(HttpResponseStatus.BAD_REQUEST);
	}

	@Test
	void moreThanAHundredHeaderLinesAre431() {
		HttpRequest request = request(HttpMethod.GET, "/", "Host", "a");
		for (int i = 0; i < RequestChecks.MAX_HEADERS - 1; i++) {
			request.headers().add("X-H" + i, "v");
		}
		assertThat(RequestChecks.problem(request)).isNull();
		request.headers().add("X-One-Too-Many", "v");
		assertThat(RequestChecks.problem(request)).isEqualTo(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE);
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

	static HttpRequest request(HttpMethod method, String uri, String... headers) {
		HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, method, uri);
		for (int i = 0; i < headers.length; i += 2) {
			request.headers().add(headers[i], headers[i + 1]);
		}
		return request;
	}

}
