package dev.gatewaylab.gatewaymvc.client;

import java.net.http.HttpClient;
import java.util.Locale;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.core.task.VirtualThreadTaskExecutor;

/**
 * The HTTP client the gateway calls its upstreams with, as its levers choose it: which
 * client ({@code GATEWAY_MVC_HTTP_CLIENT}), the executor of the JDK's {@code HttpClient}
 * ({@code GATEWAY_MVC_CLIENT_EXECUTOR}) and the HTTP version it asks for
 * ({@code GATEWAY_MVC_HTTP_VERSION}).
 *
 * @param kind {@code jdk}: the JDK's {@code HttpClient} (Spring Cloud Gateway Server
 * WebMVC's default when no other client library is on the class path); {@code simple}:
 * the JDK's {@code HttpURLConnection}, blocking on the request's own thread
 * @param executor {@code virtual}: the JDK client runs its work on a virtual thread per
 * task (what Spring Boot 4.1 gives it when virtual threads are on); {@code jdk}: the JDK
 * client's own executor, a cached pool of platform threads (spring-cloud-gateway#4150's
 * slow case)
 * @param version the version the JDK client asks for: {@code HTTP_1_1}, or {@code HTTP_2}
 * (its own default: the first request of each connection offers an h2c upgrade)
 */
record OutboundClient(String kind, String executor, HttpClient.Version version) {

	OutboundClient {
		kind = kind.trim().toLowerCase(Locale.ROOT);
		executor = executor.trim().toLowerCase(Locale.ROOT);
		if (!kind.equals("jdk") && !kind.equals("simple")) {
			throw new IllegalArgumentException(
					"GATEWAY_MVC_HTTP_CLIENT (gateway-mvc.client.factory) is '" + kind + "': use jdk or simple");
		}
		if (!executor.equals("virtual") && !executor.equals("jdk")) {
			throw new IllegalArgumentException("GATEWAY_MVC_CLIENT_EXECUTOR (gateway-mvc.client.executor) is '"
					+ executor + "': use virtual or jdk");
		}
	}

	ClientHttpRequestFactoryBuilder<?> builder() {
		if (this.kind.equals("simple")) {
			return ClientHttpRequestFactoryBuilder.simple();
		}
		// Spring's JDK request factory asks every upstream for gzip/deflate and inflates
		// the answer (Spring Framework 7's default): a proxy passes bodies and the
		// client's Accept-Encoding on as they are, as the WebFlux gateway does.
		var jdk = ClientHttpRequestFactoryBuilder.jdk()
			.withHttpClientCustomizer((client) -> client.version(this.version))
			.withCustomizer((factory) -> factory.enableCompression(false));
		return this.executor.equals("virtual") ? jdk.withExecutor(new VirtualThreadTaskExecutor("httpclient-")) : jdk;
	}

	@Override
	public String toString() {
		return this.kind.equals("simple") ? "HttpURLConnection (simple)"
				: "JDK HttpClient, " + this.version + ", executor " + this.executor;
	}

}
