package dev.gatewaylab.accesslog.webflux;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import dev.gatewaylab.accesslog.AccessLog;
import dev.gatewaylab.accesslog.AccessLogCapture;
import dev.gatewaylab.accesslog.LoggingMode;
import dev.gatewaylab.testsupport.CapturingAppender;
import org.apache.logging.log4j.LogManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveHopByHopHeadersFilter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;

import static org.assertj.core.api.Assertions.assertThat;

class AccessLogGlobalFilterTests {

	private final AtomicReference<ServerWebExchange> forwarded = new AtomicReference<>();

	private final GatewayFilterChain upstream = (exchange) -> {
		this.forwarded.set(exchange);
		exchange.getResponse().setStatusCode(HttpStatus.OK);
		return Mono.empty();
	};

	private CapturingAppender appender;

	@BeforeEach
	void captureAccessLog() {
		this.appender = AccessLogCapture.attach();
	}

	@AfterEach
	void detach() {
		this.appender.detach();
	}

	@Test
	void createsRequestIdAndSendsItUpstreamAndBack() {
		MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/api/studies/1"));

		new AccessLogGlobalFilter(LoggingMode.ASYNC, null).filter(exchange, this.upstream).block();

		String sentUpstream = sentUpstream(this.forwarded.get()).getFirst("X-Request-Id");
		assertThat(sentUpstream).matches("[0-9a-f-]{36}");
		assertThat(exchange.getResponse().getHeaders().getFirst("X-Request-Id")).isEqualTo(sentUpstream);
	}

	@Test
	void propagatesTheClientsRequestId() {
		MockServerWebExchange exchange = MockServerWebExchange
			.from(MockServerHttpRequest.get("/api/studies/1").header("X-Request-Id", "abc-123"));

		new AccessLogGlobalFilter(LoggingMode.ASYNC, null).filter(exchange, this.upstream).block();

		assertThat(sentUpstream(this.forwarded.get()).getFirst("X-Request-Id")).isEqualTo("abc-123");
		assertThat(exchange.getResponse().getHeaders().getFirst("X-Request-Id")).isEqualTo("abc-123");
	}

	@Test
	void replacesARequestIdThatWouldInjectIntoTheLog() {
		assertThat(AccessLog.requestId("evil\nresponse id=forged status=200")).matches("[0-9a-f-]{36}");
		assertThat(AccessLog.requestId("x".repeat(129))).matches("[0-9a-f-]{36}");
	}

	@Test
	void replacesAnUnsafeClientRequestIdUpstreamToo() {
		MockServerWebExchange exchange = MockServerWebExchange
			.from(MockServerHttpRequest.get("/api/studies/1").header("X-Request-Id", "x".repeat(129)));

		new AccessLogGlobalFilter(LoggingMode.ASYNC, null).filter(exchange, this.upstream).block();

		String sent = sentUpstream(this.forwarded.get()).getFirst("X-Request-Id");
		assertThat(sent).matches("[0-9a-f-]{36}");
		assertThat(exchange.getResponse().getHeaders().getFirst("X-Request-Id")).isEqualTo(sent);
	}

	@Test
	void sendsExactlyOneRequestIdUpstreamWhenTheClientSentTwo() {
		MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/api/studies/1")
			.header("X-Request-Id", "abc-1", "evil value <script> with spaces"));

		new AccessLogGlobalFilter(LoggingMode.ASYNC, null).filter(exchange, this.upstream).block();

		assertThat(sentUpstream(this.forwarded.get()).get("X-Request-Id")).containsExactly("abc-1");
		assertThat(exchange.getResponse().getHeaders().get("X-Request-Id")).containsExactly("abc-1");
	}

	@Test
	void addsTheRequestIdEvenToReadOnlyHeaders() {
		MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/api/studies/1"));
		new AccessLogGlobalFilter(LoggingMode.OFF, null).filter(exchange, this.upstream).block();

		HttpHeaders readOnly = HttpHeaders.readOnlyHttpHeaders(exchange.getRequest().getHeaders());
		HttpHeaders sent = new RequestIdHeadersFilter().filter(readOnly, exchange);

		assertThat(sent.getFirst("X-Request-Id"))
			.isEqualTo(exchange.getResponse().getHeaders().getFirst("X-Request-Id"));
	}

	@Test
	void logsOneLineAtCompletion() {
		MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/api/studies/7")
			.header("X-Request-Id", "rid-1")
			.header("X-Forwarded-For", "6.6.6.6")
			.remoteAddress(new InetSocketAddress("127.0.0.9", 50000)));

		new AccessLogGlobalFilter(LoggingMode.ASYNC, null).filter(exchange, this.upstream).block();

		List<String> lines = this.appender.awaitMessageContaining("id=rid-1 ")
			.stream()
			.filter((line) -> line.contains("id=rid-1 "))
			.toList();
		// The client IP is the socket peer, never the forgeable X-Forwarded-For.
		assertThat(lines).singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
			.matches(
					"id=rid-1 method=GET path=/api/studies/7 client=127\\.0\\.0\\.9 status=200 durationMs=\\d+\\.\\d{3}");
	}

	/**
	 * The headers the routing filter would send upstream: the gateway's header filters,
	 * as NettyRoutingFilter applies them.
	 */
	private static HttpHeaders sentUpstream(ServerWebExchange exchange) {
		return HttpHeadersFilter.filterRequest(List.of(new RemoveHopByHopHeadersFilter(), new RequestIdHeadersFilter()),
				exchange);
	}

	@Test
	void offModeLogsNothingButStillPropagatesTheRequestId() {
		MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/api/studies/1"));

		new AccessLogGlobalFilter(LoggingMode.OFF, null).filter(exchange, this.upstream).block();
		// A marker line through the same logger proves the appender would have seen the
		// filter's lines.
		LogManager.getLogger(AccessLog.LOGGER_NAME).info("marker");

		String requestId = exchange.getResponse().getHeaders().getFirst("X-Request-Id");
		assertThat(requestId).isNotBlank();
		// Lines arrive in order on the async logger's thread: once the marker is there,
		// the filter's line would be too.
		assertThat(this.appender.awaitMessageContaining("marker")).contains("marker")
			.noneMatch((line) -> line.contains("id=" + requestId + " "));
	}

}
