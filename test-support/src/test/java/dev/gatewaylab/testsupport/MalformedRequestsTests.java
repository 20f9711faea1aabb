package dev.gatewaylab.testsupport;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MalformedRequestsTests {

	@Test
	void headerLinesCountsEveryHeaderLine() {
		String request = MalformedRequests.headerLines("/x", 101);
		String head = request.substring(0, request.indexOf("\r\n\r\n"));
		assertThat(head.split("\r\n")).hasSize(1 + 101);
		assertThat(head).contains("\r\nHost: a\r\n").endsWith("\r\nConnection: close");
	}

	@Test
	void largeHeaderIsOneLineOfTheGivenSize() {
		String request = MalformedRequests.largeHeader("/x", 8_000);
		assertThat(List.of(request.split("\r\n"))).filteredOn((line) -> line.startsWith("X-Large: "))
			.singleElement()
			.satisfies((line) -> assertThat(line).hasSize(8_000));
	}

	@Test
	void everyCaseIsOneRequestHeadThatAsksForTheClose() {
		List<String> requests = List.of(MalformedRequests.get("/x", "Accept: */*"),
				MalformedRequests.backslashTraversal("/x"), MalformedRequests.badEscapeInPathParameter("/x"),
				MalformedRequests.malformedAccept("/x"), MalformedRequests.formWithBrokenEscape("PUT", "/x"),
				MalformedRequests.withoutHost("/x"), MalformedRequests.twoHosts("/x"),
				MalformedRequests.unknownVersion("/x"), MalformedRequests.malformedChunk("/x"));
		for (String request : requests) {
			String head = request.substring(0, request.indexOf("\r\n\r\n") + 4);
			assertThat(head).as(request).contains("\r\nConnection: close\r\n").doesNotContain("\n\n");
		}
		assertThat(MalformedRequests.formWithBrokenEscape("PUT", "/x"))
			.endsWith("Content-Length: 5\r\n" + "Connection: close\r\n\r\na=%zz");
		assertThat(MalformedRequests.backslashTraversal("/api")).startsWith("GET /api/..\\..\\etc\\passwd HTTP/1.1");
	}

	@Test
	void isHttp1xReadsTheVersionOfTheRequestLine() {
		assertThat(MalformedRequests.isHttp1x(MalformedRequests.get("/"))).isTrue();
		assertThat(MalformedRequests.isHttp1x("GET / HTTP/1.0\n\n")).isTrue();
		assertThat(MalformedRequests.isHttp1x(MalformedRequests.unknownVersion("/"))).isFalse();
		assertThat(MalformedRequests.isHttp1x("GET /")).isFalse();
	}

}
