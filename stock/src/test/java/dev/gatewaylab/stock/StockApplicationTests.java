package dev.gatewaylab.stock;

import java.time.Duration;

import dev.gatewaylab.testsupport.CapturingAppender;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.cloud.gateway.filter.NettyRoutingFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveHopByHopHeadersFilter;
import org.springframework.cloud.gateway.handler.RoutePredicateHandlerMapping;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stock Spring Cloud Gateway routes the lab's request with the lab's request id and
 * access line, on the framework's own components.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "LOG_PATH=target/logs" })
class StockApplicationTests {

	static final DisposableServer upstream = HttpServer.create()
		.host("127.0.0.1")
		.port(0)
		.route((routes) -> routes.get("/api/studies/{id}",
				(request, response) -> response.header("Content-Type", "application/json")
					.sendString(Mono.just("{\"id\":" + request.param("id") + ",\"requestId\":\""
							+ request.requestHeaders().get("X-Request-Id") + "\"}"))))
		.bindNow();

	@DynamicPropertySource
	static void upstreams(DynamicPropertyRegistry registry) {
		registry.add("STUDY_SERVICE_URL", () -> "http://127.0.0.1:" + upstream.port());
	}

	@AfterAll
	static void stopUpstream() {
		upstream.disposeNow();
	}

	@LocalServerPort
	int port;

	@Autowired
	ApplicationContext context;

	@Test
	void routesTheStudyRequestWithARequestIdAndOneAccessLine() {
		CapturingAppender access = CapturingAppender.attachTo("dev.gatewaylab.gateway.access");
		try {
			WebTestClient client = WebTestClient.bindToServer()
				.baseUrl("http://127.0.0.1:" + this.port)
				.responseTimeout(Duration.ofSeconds(10))
				.build();
			client.get()
				.uri("/api/studies/42")
				.header("X-Request-Id", "stock-1")
				.exchange()
				.expectStatus()
				.isOk()
				.expectHeader()
				.valueEquals("X-Request-Id", "stock-1")
				.expectBody(String.class)
				.isEqualTo("{\"id\":42,\"requestId\":\"stock-1\"}");
			assertThat(access.awaitMessageContaining("id=stock-1"))
				.anySatisfy((line) -> assertThat(line).contains("method=GET path=/api/studies/42", "status=200"));
		}
		finally {
			access.detach();
		}
	}

	@Test
	void runsTheFrameworksOwnComponents() {
		assertThat(this.context.getBeanNamesForType(NettyRoutingFilter.class)).hasSize(1);
		assertThat(this.context.getBean(RoutePredicateHandlerMapping.class).getClass())
			.isEqualTo(RoutePredicateHandlerMapping.class);
		assertThat(this.context.getBean(RemoveHopByHopHeadersFilter.class).getClass())
			.isEqualTo(RemoveHopByHopHeadersFilter.class);
		assertThat(ClassUtils.isPresent("dev.gatewaylab.levers.Lever", null)).as("the levers' module").isFalse();
	}

}
