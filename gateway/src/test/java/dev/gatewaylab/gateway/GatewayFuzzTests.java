package dev.gatewaylab.gateway;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import dev.gatewaylab.testsupport.MalformedRequests;
import dev.gatewaylab.testsupport.RawHttp;
import dev.gatewaylab.testsupport.RawResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random and malformed HTTP on raw sockets against a running gateway (hardening): a fixed
 * seed, {@value #CASES} requests mutated in method, request target, version, headers,
 * framing and body. Every one gets an answer or a closed connection within the read
 * timeout, never a 5xx (except 505 for a version that is not HTTP/1.x), never a stack
 * trace, and every 4xx is {@code application/problem+json}; the gateway still serves
 * afterwards. Both routes point at an upstream that answers like study-service
 * (problem+json for what it does not know), so every 5xx would be the gateway's own.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "LOG_PATH=target/logs", "GATEWAY_IDLE_TIMEOUT=1s",
				"GATEWAY_READ_TIMEOUT=300ms", "GATEWAY_MAX_BODY_SIZE=4KB", "GATEWAY_LOGIN_PER_IP=1000000" })
class GatewayFuzzTests {

	static final int CASES = 3000;

	static final long SEED = 20261124L;

	static final String PROBLEM_404 = "{\"type\":\"about:blank\",\"title\":\"Not Found\",\"status\":404}";

	static final DisposableServer upstream = HttpServer.create()
		.host("127.0.0.1")
		.port(0)
		.handle((request, response) -> request.receive().then().then(Mono.defer(() -> {
			String uri = request.uri();
			if (request.method().name().equals("GET") && uri.equals("/api/studies/1")) {
				return response.header("Content-Type", "application/json")
					.sendString(Mono.just(Upstream.STUDY_JSON))
					.then();
			}
			return response.status(404)
				.header("Content-Type", "application/problem+json")
				.sendString(Mono.just(PROBLEM_404))
				.then();
		})))
		.bindNow();

	@DynamicPropertySource
	static void upstreams(DynamicPropertyRegistry registry) {
		registry.add("STUDY_SERVICE_URL", () -> "http://127.0.0.1:" + upstream.port());
		registry.add("MONOLITH_URL", () -> "http://127.0.0.1:" + upstream.port());
	}

	@AfterAll
	static void stopUpstream() {
		upstream.disposeNow();
	}

	@LocalServerPort
	int port;

	@Test
	void randomAndMalformedRequestsNeverGet5xxAndEvery4xxIsProblemJson() throws Exception {
		Random random = new Random(SEED);
		List<String> requests = new ArrayList<>();
		for (int i = 0; i < CASES; i++) {
			requests.add(FuzzRequests.next(random));
		}
		List<String> failures = new CopyOnWriteArrayList<>();
		Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
		ExecutorService pool = Executors.newFixedThreadPool(16);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (String request : requests) {
				done.add(pool.submit(() -> check(request, failures, outcomes)));
			}
			for (Future<?> f : done) {
				f.get();
			}
		}
		finally {
			pool.shutdownNow();
		}
		Map<String, Integer> summary = new TreeMap<>();
		outcomes.forEach((k, v) -> summary.put(k, v.get()));
		System.out.println("GatewayFuzzTests outcomes (seed " + SEED + "): " + summary);
		assertThat(failures).as("requests that broke a rule, of " + CASES + " (outcomes " + summary + ")").isEmpty();
		assertThat(summary.keySet()).as("the fuzz reached both answers and refusals").contains("200", "400", "404");
		assertThat(RawHttp.exchange(this.port, "GET /api/studies/1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"))
			.as("still serving after the fuzz")
			.startsWith("HTTP/1.1 200 ");
	}

	private void check(String request, List<String> failures, Map<String, AtomicInteger> outcomes) {
		String response;
		try {
			response = RawHttp.exchange(this.port, request, 5_000);
		}
		catch (IOException ex) {
			response = "<" + ex + ">";
		}
		String outcome = RawResponse.outcome(response);
		outcomes.computeIfAbsent(outcome, (k) -> new AtomicInteger()).incrementAndGet();
		String problem = null;
		if (response.contains("<read timeout>")) {
			problem = "neither answered nor closed within 5 s";
		}
		else if (outcome.startsWith("5") && !(outcome.equals("505") && !MalformedRequests.isHttp1x(request))) {
			problem = "a server error";
		}
		else if (outcome.startsWith("4") && !request.startsWith("HEAD ") // a HEAD answer
																			// has no body
																			// (RFC 9110
																			// §9.3.2)
				&& !RawResponse.parse(response).isProblemJson()) {
			problem = "a 4xx that is not problem+json";
		}
		else if (response.contains("Exception") || response.contains("\tat ")) {
			problem = "a stack trace in the answer";
		}
		if (problem != null && failures.size() < 30) {
			failures.add(problem + ": " + RawHttp.printable(request, 300) + " → " + RawHttp.printable(response, 400));
		}
	}

}
