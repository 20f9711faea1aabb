package dev.gatewaylab.runner.run;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.StringReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReachabilityTests {

	private static final Reachability.How BY_HAND = new Reachability.How(false, false);

	private final List<String> seen = new CopyOnWriteArrayList<>();

	private HttpServer server;

	private int status = 200;

	@BeforeEach
	void start() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.server.createContext("/", (exchange) -> {
			this.seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " id="
					+ exchange.getRequestHeaders().getFirst("X-Request-Id"));
			exchange.sendResponseHeaders(this.status, -1);
			exchange.close();
		});
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
	}

	@Test
	void probesEachTargetOnceWithItsPlansRequestAndAnIdTheAccessLogTellsApart() throws Exception {
		Catalog catalog = catalog();
		Target gateway = target("gateway");
		Reachability.check(List.of(gateway, target("gateway")), catalog, Map.of(), BY_HAND, Duration.ofSeconds(5));
		assertThat(this.seen).containsExactly("GET /api/studies/1 id=" + Reachability.PROBE_ID);
	}

	@Test
	void anUnexpectedStatusStopsTheRunNamingTheRequest() throws Exception {
		this.status = 503;
		Catalog catalog = catalog();
		assertThatThrownBy(
				() -> Reachability.check(List.of(target("gateway")), catalog, Map.of(), BY_HAND, Duration.ofSeconds(5)))
			.isInstanceOf(LabException.class)
			.hasMessageContaining("target gateway answered GET http://127.0.0.1:")
			.hasMessageContaining("/api/studies/1 with 503, not 200");
	}

	@Test
	void aTargetThatDoesNotAnswerStopsTheRunWithTheFix() throws Exception {
		Catalog catalog = catalog();
		this.server.stop(0);
		assertThatThrownBy(
				() -> Reachability.check(List.of(target("gateway")), catalog, Map.of(), BY_HAND, Duration.ofSeconds(5)))
			.isInstanceOf(LabException.class)
			.hasMessageContaining("target gateway does not answer its plan's request");
	}

	private Target target(String name) {
		return new Target(name, name, URI.create("http://127.0.0.1:" + this.server.getAddress().getPort()), name, null);
	}

	private static Catalog catalog() throws IOException {
		Properties p = new Properties();
		p.load(new StringReader("""
				services=gateway
				service.gateway.port=8080
				service.gateway.management-port=9080
				targets=gateway
				target.gateway.service=gateway
				target.gateway.needs=gateway
				target.gateway.plan=gateway
				plan.gateway.request=GET /api/studies/{id}
				plan.gateway.expect=200
				"""));
		return Catalog.parse(p);
	}

}
