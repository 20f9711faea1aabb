package dev.gatewaylab.gateway;

import java.io.IOException;

import dev.gatewaylab.testsupport.RawHttp;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hardening probe "WebSocket upgrade on a plain route → 101, then close 1002, a WARN
 * stack trace, access log 200" reproduces only with the global filters no route uses
 * switched back on (GATEWAY_UNUSED_FILTERS=true): the WebSocket routing filter then turns
 * any request carrying {@code Upgrade: websocket} into a ws:// call to an upstream that
 * does not speak WebSocket. With the defaults the upgrade is answered as plain HTTP
 * ({@code ServerHardeningTests.aWebSocketUpgradeOnAPlainRouteIsAnsweredAsPlainHttp}).
 * Pinned here so that the known behaviour of the opt-in is visible (docs/reliability.md).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "LOG_PATH=target/logs", "GATEWAY_UNUSED_FILTERS=true" })
class WebSocketUpgradeTests extends RunningGateway {

	@Test
	void withTheUnusedFiltersOnAnUpgradeOnAPlainRouteGets101() throws IOException {
		try (RawHttp raw = new RawHttp(this.port, 3_000)) {
			String answer = raw
				.send("GET /api/studies/1 HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
						+ "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
				.readAll();
			assertThat(answer).startsWith("HTTP/1.1 101 ");
		}
	}

}
