package dev.gatewaylab.levers.routing;

import java.util.concurrent.TimeUnit;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import dev.gatewaylab.levers.headers.HopByHopHeaders;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import org.springframework.cloud.gateway.filter.headers.RemoveHopByHopHeadersFilter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.support.Netty4HeadersAdapter;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;

/**
 * The hop-by-hop header copy of one proxied request, as the lean routing path does it:
 * the request's headers filtered and set on the outgoing request, the upstream's response
 * headers filtered and added to the client's response (with the lean filter in one pass,
 * as {@code UpstreamRoutingFilter} does when it is the only response filter).
 * {@code filter} = Spring Cloud
 * Gateway's {@code RemoveHopByHopHeadersFilter} or the hop-by-hop headers lever's. Headers as the
 * lab's load sends them (wrk: Host only; a browser: eight more) and as study-service
 * answers. Run command: docs/gateway-levers.md.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = { "-Xmx256m", "-Xms256m", "-XX:+UseParallelGC" })
public class HopByHopHeadersBenchmark {

	@Param({ "framework", "lean" })
	String filter;

	@Param({ "wrk", "browser" })
	String client;

	private RemoveHopByHopHeadersFilter headersFilter;

	private HttpHeaders request;

	private DefaultHttpHeaders upstreamResponse;

	private HttpHeaders response;

	private final ServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/"));

	@Setup
	public void setUp() {
		this.headersFilter = "lean".equals(this.filter) ? new HopByHopHeaders.LeanFilter()
				: new RemoveHopByHopHeadersFilter();
		DefaultHttpHeaders requestHeaders = new DefaultHttpHeaders();
		requestHeaders.add("Host", "127.0.0.1:8080");
		if ("browser".equals(this.client)) {
			requestHeaders.add("User-Agent", "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0");
			requestHeaders.add("Accept", "application/json, text/plain, */*");
			requestHeaders.add("Accept-Language", "en-GB,en;q=0.5");
			requestHeaders.add("Accept-Encoding", "gzip, deflate, br");
			requestHeaders.add("Connection", "keep-alive");
			requestHeaders.add("Referer", "http://127.0.0.1:8080/");
			requestHeaders.add("Cookie", "JSESSIONID=0123456789ABCDEF0123456789ABCDEF");
			requestHeaders.add("Sec-Fetch-Mode", "cors");
		}
		this.request = HttpHeaders.readOnlyHttpHeaders(new HttpHeaders(new Netty4HeadersAdapter(requestHeaders)));
		DefaultHttpHeaders responseHeaders = new DefaultHttpHeaders();
		responseHeaders.add("Content-Type", "application/json");
		responseHeaders.add("Content-Length", "92");
		responseHeaders.add("Date", "Wed, 25 Nov 2026 23:59:59 GMT");
		responseHeaders.add("Keep-Alive", "timeout=60");
		responseHeaders.add("Connection", "keep-alive");
		this.upstreamResponse = responseHeaders;
		this.response = new HttpHeaders(new Netty4HeadersAdapter(responseHeaders));
	}

	@Benchmark
	public Object requestAndResponse() {
		HttpHeaders filteredRequest = this.headersFilter.filter(this.request, this.exchange);
		filteredRequest.set("X-Forwarded-For", "127.0.0.1");
		filteredRequest.set("X-Request-Id", "6f1c2b5e-8f7d-4f5b-9a51-2b0f4c9e1d3a");
		DefaultHttpHeaders outgoing = new DefaultHttpHeaders();
		UpstreamRoutingFilter.copyRequestHeaders(filteredRequest, outgoing, null);
		HttpHeaders clientResponse = new HttpHeaders(new Netty4HeadersAdapter(new DefaultHttpHeaders()));
		if (this.headersFilter instanceof HopByHopHeaders.LeanFilter lean) {
			// the routing filter's one pass over the upstream's header lines
			return new Object[] { outgoing, clientResponse,
					lean.copyResponseHeaders(this.upstreamResponse, clientResponse) };
		}
		HttpHeaders filteredResponse = this.headersFilter.filter(this.response, this.exchange);
		clientResponse.addAll(filteredResponse);
		return new Object[] { outgoing, clientResponse, filteredResponse.headerNames() };
	}

}
