package dev.gatewaylab.levers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

import dev.gatewaylab.testsupport.RawHttp;
import dev.gatewaylab.testsupport.RawResponse;

/**
 * One request the tests send through a gateway, as raw HTTP/1.1 (so every header is sent
 * exactly as written), with {@code X-Case: <name>} so that the gateway's recorder files
 * the exchange under its name.
 *
 * @param name the case's name
 * @param head the request line and header lines after {@code Host}, each ending in CRLF
 * @param body the body as sent (already chunk-encoded when the head says chunked)
 * @param host the {@code Host} sent, or null for the gateway's own address
 */
record Case(String name, String head, String body, String host) {

	Case(String name, String head, String body) {
		this(name, head, body, null);
	}

	static Case get(String name, String target, String... headers) {
		return new Case(name, "GET " + target + " HTTP/1.1\r\n" + lines(headers), "");
	}

	static Case withBody(String name, String method, String target, String body, String... headers) {
		return new Case(name, method + " " + target + " HTTP/1.1\r\n" + lines(headers) + "Content-Type: text/plain\r\n"
				+ "Content-Length: " + body.length() + "\r\n", body);
	}

	static Case chunked(String name, String method, String target, String... chunks) {
		StringBuilder body = new StringBuilder();
		for (String chunk : chunks) {
			body.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
		}
		body.append("0\r\n\r\n");
		return new Case(name,
				method + " " + target + " HTTP/1.1\r\nContent-Type: text/plain\r\n" + "Transfer-Encoding: chunked\r\n",
				body.toString());
	}

	/** The request as sent to a gateway on {@code port}. */
	String request(int port) {
		String host = (this.host != null) ? this.host : "127.0.0.1:" + port;
		String head = this.head.replaceFirst("\r\n", "\r\nHost: " + host + "\r\nX-Case: " + this.name + "\r\n");
		return head + "Connection: close\r\n\r\n" + this.body;
	}

	/** Sends it on a new connection and reads the answer (10 s at most). */
	RawResponse send(int port) {
		try {
			return RawResponse.parse(RawHttp.exchange(port, request(port), 10_000));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * What a gateway is sent by every test: requests with and without bodies, each kind
	 * of response body, statuses the framework knows and one it does not, hop-by-hop and
	 * forwarded headers both ways, the route order, a route behind a predicate that
	 * answers later, a preserved {@code Host}, a response timeout and a body slower than
	 * it, retries that succeed, run out, do not apply and resend a body, and an upstream
	 * that refuses or drops the connection.
	 */
	static List<Case> all() {
		return List.of(
				get("get-echo", "/echo/a?x=1&y=%20z", "Accept: */*", "X-Custom: 1", "TE: trailers",
						"Forwarded: for=1.2.3.4", "X-Forwarded-Host: evil.example", "X-Forwarded-For: 9.9.9.9",
						"Connection: X-Hop", "X-Hop: dropped"),
				withBody("post-small", "POST", "/echo/post", "{\"a\":1}"),
				chunked("post-chunked", "POST", "/echo/chunked", "first,", "second"),
				withBody("put-big", "PUT", "/echo/big", TestUpstream.big().substring(0, 100 * 1024)),
				new Case("head-echo", "HEAD /echo/head HTTP/1.1\r\n", ""), get("get-big", "/big"),
				get("get-chunked", "/chunked"), get("get-sse", "/sse", "Accept: text/event-stream"),
				get("get-hop", "/hop"), get("status-404", "/status/404"), get("status-500", "/status/500"),
				get("status-599", "/status/599"), get("status-204", "/status/204"), get("status-304", "/status/304"),
				get("no-route", "/nowhere"), get("shadowed", "/echo/shadowed"), get("timeout", "/timeout/slow/1000"),
				get("trickle", "/slow-body/trickle"), get("retry-flaky", "/retry/flaky/one"),
				get("retry-exhausted", "/retry/status/503"),
				withBody("retry-post", "POST", "/retry/flaky/two", "posted"),
				withBody("retry-get-body", "GET", "/retry/flaky/three", "sent twice"),
				get("retry-close", "/retry/close"), get("dead", "/dead/x"), get("later", "/later/echo/l"),
				new Case("host", "GET /host/echo/h HTTP/1.1\r\n", "", "client.example"));
	}

	private static String lines(String... headers) {
		StringBuilder text = new StringBuilder();
		for (String header : headers) {
			text.append(header).append("\r\n");
		}
		return text.toString();
	}

}
