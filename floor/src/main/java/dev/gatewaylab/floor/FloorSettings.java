package dev.gatewaylab.floor;

import java.net.URI;
import java.util.Map;

/**
 * The floor's settings, from environment variables with the lab's defaults
 * (lab.properties: service floor). Its event loops follow the gateway's
 * ({@code GATEWAY_IO_WORKER_COUNT}, {@code GATEWAY_IO_SELECT_COUNT} and their defaults)
 * unless set for the floor alone, so the two are compared on the same threads.
 *
 * @param port the proxy's port ({@code PORT}, default 8083)
 * @param address where the proxy's port listens ({@code FLOOR_ADDRESS}; empty, the
 * default: every interface; {@code ./lab} sets 127.0.0.1)
 * @param managementPort readiness and Prometheus ({@code MANAGEMENT_PORT}, default 9083)
 * @param managementAddress where the management port listens ({@code MANAGEMENT_ADDRESS},
 * default 127.0.0.1)
 * @param upstream where every request goes ({@code STUDY_SERVICE_URL}, default
 * http://localhost:8081)
 * @param ioWorkerCount event loops shared by server and client
 * ({@code FLOOR_IO_WORKER_COUNT}, else {@code GATEWAY_IO_WORKER_COUNT}, else half the
 * cores, at least 1 — the gateway's default)
 * @param ioSelectCount threads that accept connections, -1 = on the event loops
 * ({@code FLOOR_IO_SELECT_COUNT}, else {@code GATEWAY_IO_SELECT_COUNT}, else 1 — the
 * gateway's default)
 */
record FloorSettings(int port, String address, int managementPort, String managementAddress, URI upstream,
		int ioWorkerCount, int ioSelectCount) {

	static final int DEFAULT_PORT = 8083;

	static final int DEFAULT_MANAGEMENT_PORT = 9083;

	static FloorSettings from(Map<String, String> env) {
		int cores = Runtime.getRuntime().availableProcessors();
		return new FloorSettings(port(env, "PORT", DEFAULT_PORT), value(env, "FLOOR_ADDRESS", ""),
				port(env, "MANAGEMENT_PORT", DEFAULT_MANAGEMENT_PORT), value(env, "MANAGEMENT_ADDRESS", "127.0.0.1"),
				upstream(value(env, "STUDY_SERVICE_URL", "http://localhost:8081")),
				number(env, "FLOOR_IO_WORKER_COUNT", "GATEWAY_IO_WORKER_COUNT", Math.max(1, cores / 2), 1),
				number(env, "FLOOR_IO_SELECT_COUNT", "GATEWAY_IO_SELECT_COUNT", 1, -1));
	}

	/**
	 * The system properties Reactor Netty and Netty read once, before the first event
	 * loop exists; as in the gateway: no buffer leak tracking, epoll.
	 */
	Map<String, String> systemProperties() {
		return Map.of("reactor.netty.ioWorkerCount", String.valueOf(ioWorkerCount), "reactor.netty.ioSelectCount",
				String.valueOf(ioSelectCount), "io.netty.leakDetection.level", "disabled");
	}

	private static String value(Map<String, String> env, String name, String fallback) {
		String v = env.get(name);
		return (v == null || v.isBlank()) ? fallback : v.trim();
	}

	/**
	 * The floor's own variable, else the gateway's, else the default; at least
	 * {@code min}.
	 */
	private static int number(Map<String, String> env, String floorName, String gatewayName, int fallback, int min) {
		String key = env.containsKey(floorName) ? floorName : gatewayName;
		int v = parse(key, value(env, key, String.valueOf(fallback)));
		if (v < min || v == 0) {
			throw new IllegalArgumentException(key + "=" + v + " is out of range: use a number >= " + Math.max(1, min)
					+ (min < 0 ? " (or -1: accept on the event loops)" : ""));
		}
		return v;
	}

	private static int port(Map<String, String> env, String name, int fallback) {
		int v = parse(name, value(env, name, String.valueOf(fallback)));
		if (v < 0 || v > 65535) {
			throw new IllegalArgumentException(name + "=" + v + " is not a port: use 1..65535 (0: any free port)");
		}
		return v;
	}

	private static int parse(String name, String v) {
		try {
			return Integer.parseInt(v);
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException(name + "='" + v + "' is not a number");
		}
	}

	private static URI upstream(String url) {
		try {
			URI u = URI.create(url);
			if (u.getHost() == null || u.getPort() == 0 || !"http".equals(u.getScheme())) {
				throw new IllegalArgumentException();
			}
			return u;
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(
					"STUDY_SERVICE_URL='" + url + "' is not an http://host:port URL, e.g. http://localhost:8081");
		}
	}

}
