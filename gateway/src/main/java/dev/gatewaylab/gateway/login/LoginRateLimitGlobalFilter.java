package dev.gatewaylab.gateway.login;

import dev.gatewaylab.gateway.feature.Feature;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

import dev.gatewaylab.gateway.clientip.ClientAddress;
import dev.gatewaylab.gateway.clientip.ClientIpResolver;
import dev.gatewaylab.gateway.clientip.ClientKey;

/**
 * Login attempts ({@code POST /login}) per client: a token bucket of {@code per-ip}
 * attempts per {@code window} (Bucket4j), keyed by {@link ClientAddress#key()} of the
 * request's client as {@link ClientIpResolver#client resolved once} for the deny list
 * too: the socket peer, or the X-Forwarded-For entry behind a trusted proxy — an IPv4
 * address (also written {@code ip:port} or {@code ::ffff:ip}), an IPv6 client's /64, or
 * one key for every forwarded address that cannot be read (never the proxy's own). Over
 * budget: 429 problem+json with {@code Retry-After}; other addresses are unaffected.
 * Buckets live in a bounded Caffeine cache in this process: with several gateway replicas
 * each keeps its own (docs/reliability.md says what a shared store needs). The per-user
 * limit is the monolith's, which knows the user name.
 * <p>
 * Cost for every other request: one identity comparison of the method (POST is rare on
 * this gateway's routes) and, for a POST, a string comparison of the path.
 */
@Component
class LoginRateLimitGlobalFilter implements GlobalFilter, Ordered, Feature {

	static final String LOGIN_SEGMENT = "login";

	private final ClientIpResolver clientIp;

	private final int perIp;

	private final Duration window;

	private final Cache<ClientKey, Bucket> buckets;

	LoginRateLimitGlobalFilter(ClientIpResolver clientIp, @Value("${gateway.login.per-ip:10}") int perIp,
			@Value("${gateway.login.window:1m}") String window,
			@Value("${gateway.login.max-clients:100000}") long maxClients) {
		if (perIp < 1) {
			throw new IllegalArgumentException(
					"gateway.login.per-ip (GATEWAY_LOGIN_PER_IP) must be at least 1, was " + perIp);
		}
		this.clientIp = clientIp;
		this.perIp = perIp;
		this.window = DurationStyle.detectAndParse(window);
		this.buckets = Caffeine.newBuilder().maximumSize(maxClients).expireAfterAccess(this.window).build();
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE + 1; // after the access log, so a 429 is
												// logged; before everything else
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		if (request.getMethod() != HttpMethod.POST || !isLogin(request.getPath().pathWithinApplication())) {
			return chain.filter(exchange);
		}
		ClientKey client = this.clientIp.client(exchange).key();
		Bucket bucket = this.buckets.get(client,
				(key) -> Bucket.builder()
					.addLimit(Bandwidth.builder().capacity(this.perIp).refillGreedy(this.perIp, this.window).build())
					.build());
		ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
		if (probe.isConsumed()) {
			return chain.filter(exchange);
		}
		long retryAfterSeconds = Math.max(1, (probe.getNanosToWaitForRefill() + 999_999_999L) / 1_000_000_000L);
		return tooManyRequests(exchange.getResponse(), retryAfterSeconds,
				"Too many login attempts from " + client.describe() + ".");
	}

	/**
	 * {@code /login} as the route predicate and Tomcat see it: decoded, path parameters
	 * ({@code ;x}) ignored.
	 */
	static boolean isLogin(PathContainer path) {
		List<PathContainer.Element> elements = path.elements();
		int last = elements.size() - 1;
		if (last >= 1 && elements.get(last) instanceof PathContainer.Separator) {
			last--; // a trailing slash
		}
		return last == 1 && elements.get(1) instanceof PathContainer.PathSegment segment
				&& LOGIN_SEGMENT.equals(segment.valueToMatch());
	}

	static Mono<Void> tooManyRequests(ServerHttpResponse response, long retryAfterSeconds, String detail) {
		byte[] body = ("{\"type\":\"about:blank\",\"title\":\"Too Many Requests\",\"status\":429,\"detail\":\"" + detail
				+ "\"}")
			.getBytes(StandardCharsets.UTF_8);
		response.setStatusCode(HttpStatus.TOO_MANY_REQUESTS);
		response.getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
		response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
		response.getHeaders().setContentLength(body.length);
		return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
	}

	@Override
	public String feature() {
		return "login limit per client address";
	}

}
