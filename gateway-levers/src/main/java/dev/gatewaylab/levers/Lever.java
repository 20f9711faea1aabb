package dev.gatewaylab.levers;

import java.util.Locale;

import org.springframework.core.env.PropertyResolver;

/**
 * The levers: each replaces one piece of Spring Cloud Gateway or WebFlux with a cheaper
 * one of the same contract, and each is on unless {@code gateway-levers.<name>.enabled}
 * or {@code gateway-levers.enabled} (all of them) is {@code false}.
 */
public enum Lever {

	/**
	 * {@code NettyRoutingFilter} and {@code NettyWriteResponseFilter}: the response
	 * timeout as a read timer on the connection's event loop, the request headers set
	 * once, a small sized body written with its headers.
	 */
	ROUTING("routing"),

	/**
	 * {@code RoutePredicateHandlerMapping}'s route lookup: the routes tested in a loop,
	 * not through {@code filterWhen} per request.
	 */
	ROUTE_LOOKUP("route-lookup"),

	/**
	 * WebFlux's {@code DispatcherHandler} for a request whose route is known at once
	 * (needs {@link #ROUTE_LOOKUP}).
	 */
	DISPATCH("dispatch"),

	/**
	 * The {@code Retry} filter: no retry machinery built for a request that does not
	 * fail.
	 */
	RETRY("retry"),

	/**
	 * {@code RouteToRequestUrlFilter}: the upstream URL of a plain request built in one
	 * string, not through a {@code UriComponentsBuilder}.
	 */
	REQUEST_URL("request-url"),

	/**
	 * {@code RemoveHopByHopHeadersFilter}: header names compared in place, no copies of
	 * the name set.
	 */
	HOP_BY_HOP_HEADERS("hop-by-hop-headers"),

	/**
	 * {@code RemoveForwardedHeadersFilter} and {@code RemoveXForwardedHeadersFilter}: no
	 * copy of the headers when there is nothing to remove.
	 */
	FORWARDED_HEADERS("forwarded-headers");

	/** The prefix of every property of the levers. */
	public static final String PREFIX = "gateway-levers";

	/** Every lever at once: {@code false} turns them all off. */
	public static final String ALL_ENABLED = PREFIX + ".enabled";

	private final String id;

	Lever(String id) {
		this.id = id;
	}

	/** The lever's name in its property ({@code route-lookup}). */
	public String id() {
		return this.id;
	}

	/** {@code gateway-levers.<name>.enabled}. */
	public String property() {
		return PREFIX + "." + this.id + ".enabled";
	}

	/**
	 * Whether the lever is on: neither its own property nor {@link #ALL_ENABLED} says
	 * {@code false} (any case; anything else counts as on, as Spring's boolean properties
	 * do not).
	 * @throws IllegalArgumentException when a value is neither true nor false
	 */
	public boolean isEnabled(PropertyResolver properties) {
		return flag(properties, ALL_ENABLED) && flag(properties, property());
	}

	private static boolean flag(PropertyResolver properties, String name) {
		String value = properties.getProperty(name);
		if (value == null) {
			return true;
		}
		return switch (value.trim().toLowerCase(Locale.ROOT)) {
			case "true" -> true;
			case "false" -> false;
			default -> throw new IllegalArgumentException(
					"Invalid " + name + "='" + value + "': use true or false (docs/gateway-levers.md)");
		};
	}

}
