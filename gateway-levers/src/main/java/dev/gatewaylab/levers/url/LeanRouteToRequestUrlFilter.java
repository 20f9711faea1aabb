package dev.gatewaylab.levers.url;

import java.net.URI;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.filter.RouteToRequestUrlFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;

import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.GATEWAY_REQUEST_URL_ATTR;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR;

/**
 * The request-url lever: Spring Cloud Gateway's {@link RouteToRequestUrlFilter} — the
 * request's URI with the route's scheme, host and port, as the routing filter's target —
 * built in one string for the common request: no user info or fragment, no %-escape in
 * path or query, a query whose parameters Spring's {@code UriComponentsBuilder} would
 * write back unchanged (each named, none repeated after another). The framework builds it
 * through a {@code UriComponentsBuilder} for every request: the query parsed into a
 * multi-value map and written again, builder and components objects, then the URI. Any
 * other request, and a route URI of another form ({@code lb:}, a scheme prefix), goes to
 * the framework's filter itself.
 */
public class LeanRouteToRequestUrlFilter implements GlobalFilter, Ordered {

	private final RouteToRequestUrlFilter framework = new RouteToRequestUrlFilter();

	@Override
	public int getOrder() {
		return RouteToRequestUrlFilter.ROUTE_TO_URL_FILTER_ORDER;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		Route route = exchange.getAttribute(GATEWAY_ROUTE_ATTR);
		URI merged = (route != null) ? merged(exchange.getRequest().getURI(), route.getUri()) : null;
		if (merged == null) {
			return this.framework.filter(exchange, chain);
		}
		exchange.getAttributes().put(GATEWAY_REQUEST_URL_ATTR, merged);
		return chain.filter(exchange);
	}

	/**
	 * The request URI on the route's scheme, host and port, or null when the framework's
	 * own building is needed.
	 */
	static URI merged(URI request, URI route) {
		String scheme = route.getScheme();
		String host = route.getHost();
		if (scheme == null || host == null || !isPlainScheme(scheme) || route.getRawUserInfo() != null
				|| request.getRawUserInfo() != null || request.getRawFragment() != null) {
			return null;
		}
		String path = request.getRawPath();
		String query = request.getRawQuery();
		if (!isPlain(path, false) || (query != null && !isPlainQuery(query))) {
			return null;
		}
		StringBuilder uri = new StringBuilder(
				scheme.length() + host.length() + 8 + path.length() + ((query != null) ? query.length() + 1 : 0));
		uri.append(scheme).append("://").append(host);
		if (route.getPort() != -1) {
			uri.append(':').append(route.getPort());
		}
		uri.append(path);
		if (query != null) {
			uri.append('?').append(query);
		}
		return URI.create(uri.toString());
	}

	/** http, https, ws, wss: no scheme-specific part of another scheme to keep. */
	private static boolean isPlainScheme(String scheme) {
		return scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https") || scheme.equalsIgnoreCase("ws")
				|| scheme.equalsIgnoreCase("wss");
	}

	/**
	 * No %-escape and only characters a URI takes as they are (the builder re-quotes
	 * anything else); an empty path is not plain (the builder has its own rule for it).
	 */
	private static boolean isPlain(String text, boolean query) {
		if (text == null || text.isEmpty() || (!query && text.charAt(0) != '/')) {
			return false;
		}
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			boolean plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
					|| "-._~!$'()*+,;:@/".indexOf(c) >= 0 || (query && (c == '=' || c == '&' || c == '?'));
			if (!plain) {
				return false;
			}
		}
		return true;
	}

	/**
	 * A query the builder writes back unchanged: {@code name[=value]} pairs joined by one
	 * {@code &}, every name non-empty, and a name seen again only right after itself (the
	 * builder groups a repeated name's values together).
	 */
	private static boolean isPlainQuery(String query) {
		if (!isPlain(query, true)) {
			return false;
		}
		String previous = null;
		java.util.Set<String> seen = null;
		int start = 0;
		while (start <= query.length()) {
			int end = query.indexOf('&', start);
			if (end < 0) {
				end = query.length();
			}
			int eq = query.indexOf('=', start);
			int nameEnd = (eq >= 0 && eq < end) ? eq : end;
			if (nameEnd == start) {
				return false;
			}
			String name = query.substring(start, nameEnd);
			if (!name.equals(previous)) {
				if (seen == null) {
					seen = new java.util.HashSet<>(4);
				}
				if (!seen.add(name)) {
					return false;
				}
				previous = name;
			}
			start = end + 1;
			if (end == query.length()) {
				break;
			}
		}
		return true;
	}

}
