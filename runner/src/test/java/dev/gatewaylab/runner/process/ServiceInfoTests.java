package dev.gatewaylab.runner.process;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServiceInfoTests {

	@Test
	void readsTheFeaturesOfEachServiceThatAnswersAndLeavesOutTheOthers() throws Exception {
		HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		server.createContext("/actuator/info", (exchange) -> {
			byte[] body = "{\"features\":[\"login limit\",\"request guard\"],\"build\":{}}"
				.getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(200, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});
		server.start();
		try {
			URI up = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
			Map<String, List<String>> features = ServiceInfo.features(
					Map.of("gateway", up, "stock", URI.create("http://127.0.0.1:1")), List.of("gateway", "stock"));
			assertThat(features).containsOnlyKeys("gateway");
			assertThat(features.get("gateway")).containsExactly("login limit", "request guard");
			assertThat(ServiceInfo.features("{\"app\":{}}")).as("no features listed").isEmpty();
		}
		finally {
			server.stop(0);
		}
	}

}
