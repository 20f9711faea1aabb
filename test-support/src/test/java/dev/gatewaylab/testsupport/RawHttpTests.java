package dev.gatewaylab.testsupport;

import java.io.EOFException;
import java.io.IOException;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RawHttpTests {

	private static final String GET = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";

	@Test
	void anInterimContinueIsSkippedAndListed() throws IOException {
		try (ScriptedServer server = new ScriptedServer(true, "HTTP/1.1 100 Continue\r\n\r\n"
				+ "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")) {
			RawResponse response = RawResponse.parse(RawHttp.exchange(server.port(), GET));
			assertThat(response.interim()).containsExactly(100);
			assertThat(response.status()).isEqualTo(201);
			assertThat(response.reason()).isEqualTo("Created");
			assertThat(response.contentType()).isEqualTo("application/json");
			assertThat(response.body()).isEqualTo("{}");
			assertThat(response.complete()).isTrue();
		}
	}

	@Test
	void everyInterimAnswerBeforeTheFinalOneIsSkippedButNotSwitchingProtocols() throws IOException {
		String answers = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"
				+ "HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 404 \r\nContent-Length: 0\r\n\r\n";
		assertThat(RawResponse.parse(answers).interim()).containsExactly(100, 103, 102);
		assertThat(RawResponse.parse(answers).status()).isEqualTo(404);
		assertThat(RawResponse.parse(answers).reason()).as("Tomcat sends no reason phrase").isEmpty();
		assertThat(RawResponse.parse("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n\u0081\u0000")
			.status()).isEqualTo(101);
	}

	@Test
	void aChunkedBodyIsDecodedPastExtensionsAndTrailers() {
		RawResponse response = RawResponse.parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
				+ "5;name=value\r\nhello\r\n7\r\n, world\r\nA\r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\n");
		assertThat(response.body()).isEqualTo("hello, world0123456789");
		assertThat(response.complete()).isTrue();
	}

	@Test
	void aBodyCutShortOrBadlyChunkedIsIncompleteWithWhatArrived() {
		RawResponse short1 = RawResponse.parse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabcd");
		assertThat(short1.body()).isEqualTo("abcd");
		assertThat(short1.complete()).isFalse();
		RawResponse badChunk = RawResponse
			.parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\nZZ\r\n");
		assertThat(badChunk.body()).isEqualTo("abc");
		assertThat(badChunk.complete()).isFalse();
		RawResponse cutHead = RawResponse.parse("HTTP/1.1 200 OK\r\nContent-Type: text/pl");
		assertThat(cutHead.status()).isEqualTo(200);
		assertThat(cutHead.complete()).isFalse();
	}

	@Test
	void withoutFramingTheBodyRunsToTheCloseAndATimeoutMakesItIncomplete() {
		RawResponse closed = RawResponse.parse("HTTP/1.0 200 OK\r\n\r\nall of it");
		assertThat(closed.version()).isEqualTo("HTTP/1.0");
		assertThat(closed.body()).isEqualTo("all of it");
		assertThat(closed.complete()).isTrue();
		RawResponse timedOut = RawResponse.parse("HTTP/1.0 200 OK\r\n\r\nsome of it" + RawHttp.READ_TIMEOUT);
		assertThat(timedOut.body()).isEqualTo("some of it");
		assertThat(timedOut.complete()).isFalse();
	}

	@Test
	void headerNamesIgnoreCaseKeepEveryValueAndJoinFoldedLines() {
		RawResponse response = RawResponse.parse("HTTP/1.1 302 Found\r\nSet-Cookie: a=1\r\nLocation: /\r\n"
				+ "set-cookie: b=2\r\nX-Folded: one\r\n  two\r\nContent-Type: application/problem+json\r\n"
				+ "Content-Length: 0\r\n\r\n");
		assertThat(response.headerValues("SET-COOKIE")).containsExactly("a=1", "b=2");
		assertThat(response.header("location")).isEqualTo("/");
		assertThat(response.header("X-Folded")).isEqualTo("one two");
		assertThat(response.header("X-Missing")).isNull();
		assertThat(response.headerValues("X-Missing")).isEmpty();
		assertThat(response.isProblemJson()).isTrue();
	}

	@Test
	void aKeptAliveConnectionIsReadOneAnswerAtATime() throws IOException {
		try (ScriptedServer server = new ScriptedServer(false, "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\none",
				"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n"
						+ "3\r\ntwo\r\n0\r\n\r\n",
				"HTTP/1.1 204 No Content\r\n\r\n"); RawHttp raw = new RawHttp(server.port(), 5_000)) {
			assertThat(raw.send(GET).readResponse().body()).isEqualTo("one");
			RawResponse second = raw.send(GET).readResponse();
			assertThat(second.interim()).containsExactly(100);
			assertThat(second.status()).isEqualTo(404);
			assertThat(second.body()).isEqualTo("two");
			assertThat(raw.send(GET).readResponse().status()).isEqualTo(204);
			assertThat(server.requests).hasSize(3);
		}
	}

	@Test
	void readResponseSaysSoWhenTheServerClosesWithoutAnAnswer() throws IOException {
		try (ScriptedServer server = new ScriptedServer(true, ""); RawHttp raw = new RawHttp(server.port(), 5_000)) {
			assertThatExceptionOfType(EOFException.class).isThrownBy(() -> raw.send(GET).readResponse());
		}
	}

	@Test
	void aServerThatClosesAtOnceReadsAsNothingAndOneThatStallsAsATimeout() throws IOException {
		try (ScriptedServer server = new ScriptedServer(true, "")) {
			String exchanged = RawHttp.exchange(server.port(), GET);
			assertThat(exchanged).isEmpty();
			assertThat(RawResponse.outcome(exchanged)).isEqualTo("closed");
		}
		try (ScriptedServer server = new ScriptedServer(false, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab")) {
			long start = System.nanoTime();
			String exchanged = RawHttp.exchange(server.port(), GET, 200);
			assertThat(exchanged).endsWith(RawHttp.READ_TIMEOUT);
			assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(5_000);
			assertThat(RawResponse.outcome(exchanged)).isEqualTo("200");
			assertThat(RawResponse.parse(exchanged).complete()).isFalse();
		}
	}

	@Test
	void textThatIsNoHttpAnswerHasNone() {
		for (String text : List.of("", "<h1>HTTP/0.9 page</h1>", RawHttp.RESET, "HTTP/1.1 abc\r\n\r\n")) {
			assertThat(RawResponse.tryParse(text)).as(text).isEmpty();
			assertThat(RawResponse.outcome(text)).isEqualTo("closed");
		}
		assertThatIllegalArgumentException().isThrownBy(() -> RawResponse.parse("garbage\u0001"))
			.withMessageContaining("garbage\\x01");
	}

	@Test
	void printableEscapesLineEndsAndControlCharactersAndCuts() {
		assertThat(RawHttp.printable("GET /\u0000 HTTP/1.1\r\n\u00e9", 100))
			.isEqualTo("GET /\\x00 HTTP/1.1\\r\\n\\xe9");
		assertThat(RawHttp.printable("abcdef", 3)).isEqualTo("abc…");
	}

}
