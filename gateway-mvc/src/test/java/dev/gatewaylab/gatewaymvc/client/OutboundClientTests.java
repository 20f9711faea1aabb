package dev.gatewaylab.gatewaymvc.client;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.cloud.gateway.server.mvc.config.RouteProperties;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class OutboundClientTests {

	@Test
	void theLeversChooseTheClient() {
		assertThat(new OutboundClient("jdk", "jdk", HttpClient.Version.HTTP_1_1).builder()
			.build(HttpClientSettings.defaults())).isInstanceOf(JdkClientHttpRequestFactory.class);
		assertThat(new OutboundClient(" Simple ", "jdk", HttpClient.Version.HTTP_1_1).builder()
			.build(HttpClientSettings.defaults())).isInstanceOf(SimpleClientHttpRequestFactory.class);
	}

	@Test
	void anUnknownValueIsRefusedNamingTheVariable() {
		assertThatIllegalArgumentException().isThrownBy(() -> new OutboundClient("netty", "virtual", null))
			.withMessageContaining("GATEWAY_MVC_HTTP_CLIENT");
		assertThatIllegalArgumentException().isThrownBy(() -> new OutboundClient("jdk", "pooled", null))
			.withMessageContaining("GATEWAY_MVC_CLIENT_EXECUTOR");
	}

	@Test
	void aRoutesResponseTimeoutIsMillisecondsOrADurationInItsMetadata() {
		Duration otherwise = Duration.ofSeconds(5);
		assertThat(OutboundClientConfiguration.timeoutOf(route(Map.of("response-timeout", 400)), otherwise))
			.isEqualTo(Duration.ofMillis(400));
		assertThat(OutboundClientConfiguration.timeoutOf(route(Map.of("response-timeout", "2s")), otherwise))
			.isEqualTo(Duration.ofSeconds(2));
		assertThat(OutboundClientConfiguration.timeoutOf(route(Map.of()), otherwise)).isEqualTo(otherwise);
	}

	private static RouteProperties route(Map<String, Object> metadata) {
		RouteProperties route = new RouteProperties();
		route.setId("r");
		route.setMetadata(metadata);
		return route;
	}

}
