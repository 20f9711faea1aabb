package dev.gatewaylab.accesslog.servlet;

import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import dev.gatewaylab.accesslog.AccessLog;
import dev.gatewaylab.accesslog.AccessLogCapture;
import dev.gatewaylab.accesslog.LoggingMode;
import dev.gatewaylab.testsupport.CapturingAppender;
import jakarta.servlet.FilterChain;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.logging.log4j.LogManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.util.LinkedCaseInsensitiveMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

class AccessLogFilterTests {

	private final AtomicReference<HttpServletRequest> forwarded = new AtomicReference<>();

	/** What a servlet gateway does: reads the headers it sends upstream, answers 200. */
	private final FilterChain upstream = (request, response) -> {
		this.forwarded.set((HttpServletRequest) request);
		((HttpServletResponse) response).setStatus(200);
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
	void createsARequestIdAndShowsItUpstreamAndToTheClient() throws Exception {
		MockHttpServletResponse response = new MockHttpServletResponse();

		new AccessLogFilter(LoggingMode.ASYNC).doFilter(get("/api/studies/1"), response, this.upstream);

		String sentUpstream = sentUpstream().get("X-Request-Id").get(0);
		assertThat(sentUpstream).matches("[0-9a-f-]{36}");
		assertThat(response.getHeader("X-Request-Id")).isEqualTo(sentUpstream);
		assertThat(this.forwarded.get().getAttribute(AccessLogFilter.REQUEST_ID_ATTRIBUTE)).isEqualTo(sentUpstream);
	}

	@Test
	void passesTheClientsRequestOnUnwrappedWhenItsIdIsTheOneToSend() throws Exception {
		MockHttpServletRequest request = get("/api/studies/1");
		request.addHeader("X-Request-Id", "abc-123");
		MockHttpServletResponse response = new MockHttpServletResponse();

		new AccessLogFilter(LoggingMode.ASYNC).doFilter(request, response, this.upstream);

		assertThat(this.forwarded.get()).isSameAs(request);
		assertThat(sentUpstream().get("X-Request-Id")).containsExactly("abc-123");
		assertThat(response.getHeader("X-Request-Id")).isEqualTo("abc-123");
	}

	@Test
	void replacesAnUnsafeClientRequestIdUpstreamToo() throws Exception {
		MockHttpServletRequest request = get("/api/studies/1");
		request.addHeader("x-request-id", "x".repeat(129));
		MockHttpServletResponse response = new MockHttpServletResponse();

		new AccessLogFilter(LoggingMode.ASYNC).doFilter(request, response, this.upstream);

		List<String> sent = sentUpstream().get("X-Request-Id");
		assertThat(sent).singleElement().asString().matches("[0-9a-f-]{36}");
		assertThat(response.getHeader("X-Request-Id")).isEqualTo(sent.get(0));
		assertThat(Collections.list(this.forwarded.get().getHeaderNames()))
			.filteredOn((name) -> name.equalsIgnoreCase("X-Request-Id"))
			.hasSize(1);
	}

	@Test
	void sendsExactlyOneRequestIdUpstreamWhenTheClientSentTwo() throws Exception {
		MockHttpServletRequest request = get("/api/studies/1");
		request.addHeader("X-Request-Id", "abc-1");
		request.addHeader("X-Request-Id", "evil value <script> with spaces");
		MockHttpServletResponse response = new MockHttpServletResponse();

		new AccessLogFilter(LoggingMode.ASYNC).doFilter(request, response, this.upstream);

		assertThat(sentUpstream().get("X-Request-Id")).containsExactly("abc-1");
		assertThat(response.getHeaders("X-Request-Id")).containsExactly("abc-1");
	}

	@Test
	void keepsEveryOtherHeaderAsTheClientSentIt() throws Exception {
		MockHttpServletRequest request = get("/api/studies/1");
		request.addHeader("Accept", "application/json");
		request.addHeader("X-Custom", "a");
		request.addHeader("X-Custom", "b");

		new AccessLogFilter(LoggingMode.ASYNC).doFilter(request, new MockHttpServletResponse(), this.upstream);

		assertThat(sentUpstream()).containsEntry("Accept", List.of("application/json"))
			.containsEntry("X-Custom", List.of("a", "b"));
	}

	@Test
	void logsOneLineAtCompletionWithTheSocketPeerAsTheClient() throws Exception {
		MockHttpServletRequest request = get("/api/studies/7");
		request.addHeader("X-Request-Id", "servlet-rid-1");
		request.addHeader("X-Forwarded-For", "6.6.6.6");
		request.setRemoteAddr("127.0.0.9");

		new AccessLogFilter(LoggingMode.ASYNC).doFilter(request, new MockHttpServletResponse(), this.upstream);

		assertThat(linesOf("servlet-rid-1")).singleElement()
			.asString()
			.matches(
					"id=servlet-rid-1 method=GET path=/api/studies/7 client=127\\.0\\.0\\.9 status=200 durationMs=\\d+\\.\\d{3}");
	}

	@Test
	void logsTheStatusTheChainAnswered() throws Exception {
		MockHttpServletRequest request = get("/nowhere");
		request.addHeader("X-Request-Id", "servlet-rid-404");

		new AccessLogFilter(LoggingMode.ASYNC).doFilter(request, new MockHttpServletResponse(),
				(req, res) -> ((HttpServletResponse) res).sendError(404));

		assertThat(linesOf("servlet-rid-404")).singleElement().asString().contains(" status=404 ");
	}

	@Test
	void logsA500WhenAnExceptionLeavesTheChainBeforeAnyAnswer() {
		MockHttpServletRequest request = get("/api/studies/1");
		request.addHeader("X-Request-Id", "servlet-rid-500");

		assertThatIOException().isThrownBy(() -> new AccessLogFilter(LoggingMode.ASYNC).doFilter(request,
				new MockHttpServletResponse(), (req, res) -> {
					throw new IOException("boom");
				}));

		assertThat(linesOf("servlet-rid-500")).singleElement().asString().contains(" status=500 ");
	}

	@Test
	void offModeLogsNothingButStillPropagatesTheRequestId() throws Exception {
		MockHttpServletResponse response = new MockHttpServletResponse();

		new AccessLogFilter(LoggingMode.OFF).doFilter(get("/api/studies/1"), response, this.upstream);
		// A marker line through the same logger: lines arrive in order on the async
		// logger's thread, so once it is there the filter's line would be too.
		LogManager.getLogger(AccessLog.LOGGER_NAME).info("servlet-marker");

		String requestId = response.getHeader("X-Request-Id");
		assertThat(requestId).isNotBlank();
		assertThat(sentUpstream().get("X-Request-Id")).containsExactly(requestId);
		assertThat(this.appender.awaitMessageContaining("servlet-marker"))
			.noneMatch((line) -> line.contains("id=" + requestId + " "));
	}

	private List<String> linesOf(String requestId) {
		return this.appender.awaitMessageContaining("id=" + requestId + " ")
			.stream()
			.filter((line) -> line.contains("id=" + requestId + " "))
			.toList();
	}

	private static MockHttpServletRequest get(String path) {
		return new MockHttpServletRequest("GET", path);
	}

	/**
	 * The headers as a servlet gateway reads them to build the upstream request (names
	 * case-insensitive, as in HTTP).
	 */
	private Map<String, List<String>> sentUpstream() {
		HttpServletRequest request = this.forwarded.get();
		Map<String, List<String>> headers = new LinkedCaseInsensitiveMap<>();
		for (String name : Collections.list(request.getHeaderNames())) {
			headers.put(name, Collections.list(request.getHeaders(name)));
		}
		return headers;
	}

}
