package dev.gatewaylab.levers;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A gateway of {@link LeverTestApplication} on a random loopback port with the given
 * levers off, routing to a {@link TestUpstream}:
 * <ul>
 * <li>{@code plain}: {@code /echo/**}, {@code /status/**}, {@code /big},
 * {@code /chunked}, {@code /sse}, {@code /hop}, {@code /trickle}, {@code /slow/**},
 * {@code /close};</li>
 * <li>{@code shadowed}: {@code /echo/shadowed}, after {@code plain}: never chosen;</li>
 * <li>{@code retry}: {@code /retry/**} (prefix stripped), the framework's {@code Retry}
 * arguments as the lab's study-service route has them;</li>
 * <li>{@code timeout}: {@code /timeout/**}, a 300 ms response timeout in the route's
 * metadata;</li>
 * <li>{@code dead}: {@code /dead/**}, an upstream port nothing listens on;</li>
 * <li>{@code later}: {@code /later/**}, behind a predicate that answers later;</li>
 * <li>{@code host}: {@code /host/**}, the client's {@code Host} preserved;</li>
 * <li>{@code slow-body}: {@code /slow-body/**}, a 1 s response timeout, for a body that
 * takes longer than that after its headers came at once (a timeout wide enough that a
 * busy machine still delivers the headers within it).</li>
 * </ul>
 */
final class TestGateway implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private final int port;

	TestGateway(TestUpstream upstream, Set<Lever> off, Map<String, String> extra) {
		Map<String, Object> properties = new LinkedHashMap<>(routes(upstream.port(), upstream.deadPort()));
		properties.put("server.address", "127.0.0.1");
		properties.put("server.port", "0");
		properties.put("spring.main.banner-mode", "off");
		properties.put("logging.level.root", "warn");
		for (Lever lever : off) {
			properties.put(lever.property(), "false");
		}
		properties.putAll(extra);
		this.context = new SpringApplicationBuilder(LeverTestApplication.class).web(WebApplicationType.REACTIVE)
			.properties(properties)
			.run();
		this.port = ((WebServerApplicationContext) this.context).getWebServer().getPort();
	}

	int port() {
		return this.port;
	}

	ConfigurableApplicationContext context() {
		return this.context;
	}

	<T> T bean(Class<T> type) {
		return this.context.getBean(type);
	}

	LeverTestApplication.Recorder recorder() {
		return bean(LeverTestApplication.Recorder.class);
	}

	@Override
	public void close() {
		this.context.close();
	}

	private static Map<String, String> routes(int upstreamPort, int deadPort) {
		String upstream = "http://127.0.0.1:" + upstreamPort;
		String prefix = "spring.cloud.gateway.server.webflux.routes";
		Map<String, String> p = new LinkedHashMap<>();
		route(p, prefix + "[0]", "plain", upstream,
				"Path=/echo/**,/status/**,/big,/chunked,/sse,/hop,/trickle,/slow/**,/close");
		p.put(prefix + "[0].metadata.response-timeout", "3000");
		route(p, prefix + "[1]", "shadowed", upstream, "Path=/echo/shadowed");
		route(p, prefix + "[2]", "retry", upstream, "Path=/retry/**");
		p.put(prefix + "[2].filters[0]", "StripPrefix=1");
		String retry = prefix + "[2].filters[1]";
		p.put(retry + ".name", "Retry");
		p.put(retry + ".args.retries", "2");
		p.put(retry + ".args.methods", "GET,HEAD");
		p.put(retry + ".args.statuses", "BAD_GATEWAY,SERVICE_UNAVAILABLE");
		p.put(retry + ".args.series", "");
		p.put(retry + ".args.exceptions",
				"java.net.ConnectException,reactor.netty.http.client.PrematureCloseException");
		p.put(retry + ".args.backoff.firstBackoff", "10ms");
		p.put(retry + ".args.backoff.maxBackoff", "50ms");
		p.put(retry + ".args.backoff.factor", "2");
		p.put(retry + ".args.backoff.basedOnPreviousValue", "false");
		p.put(prefix + "[2].metadata.response-timeout", "3000");
		route(p, prefix + "[3]", "timeout", upstream, "Path=/timeout/**");
		p.put(prefix + "[3].filters[0]", "StripPrefix=1");
		p.put(prefix + "[3].metadata.response-timeout", "300");
		route(p, prefix + "[4]", "dead", "http://127.0.0.1:" + deadPort, "Path=/dead/**");
		p.put(prefix + "[4].filters[0]", "StripPrefix=1");
		route(p, prefix + "[5]", "later", upstream, "Path=/later/**");
		p.put(prefix + "[5].predicates[1]", "Later=1");
		p.put(prefix + "[5].filters[0]", "StripPrefix=1");
		route(p, prefix + "[6]", "host", upstream, "Path=/host/**");
		p.put(prefix + "[6].filters[0]", "StripPrefix=1");
		p.put(prefix + "[6].filters[1]", "PreserveHostHeader");
		route(p, prefix + "[7]", "slow-body", upstream, "Path=/slow-body/**");
		p.put(prefix + "[7].filters[0]", "StripPrefix=1");
		p.put(prefix + "[7].metadata.response-timeout", "1000");
		return p;
	}

	private static void route(Map<String, String> p, String route, String id, String uri, String path) {
		p.put(route + ".id", id);
		p.put(route + ".uri", uri);
		p.put(route + ".predicates[0]", path);
	}

}
