package dev.gatewaylab.gatewaymvc.client;

import java.util.Map;

import org.springframework.cloud.gateway.server.mvc.common.MvcUtils;
import org.springframework.cloud.gateway.server.mvc.handler.ProxyExchange;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Sends each request through the client of its route: every route has its own response
 * timeout (route metadata {@code response-timeout}, as in the WebFlux gateway), and the
 * clients Spring offers take a read timeout per client, not per request.
 */
final class RouteProxyExchange implements ProxyExchange {

	private final Map<String, ProxyExchange> byRoute;

	private final ProxyExchange otherwise;

	RouteProxyExchange(Map<String, ProxyExchange> byRoute, ProxyExchange otherwise) {
		this.byRoute = Map.copyOf(byRoute);
		this.otherwise = otherwise;
	}

	@Override
	public ServerResponse exchange(Request request) {
		Object routeId = request.getServerRequest().servletRequest().getAttribute(MvcUtils.GATEWAY_ROUTE_ID_ATTR);
		ProxyExchange exchange = (routeId != null) ? this.byRoute.get(routeId) : null;
		return ((exchange != null) ? exchange : this.otherwise).exchange(request);
	}

}
