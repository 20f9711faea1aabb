package dev.gatewaylab.floor;

import java.time.Duration;

import reactor.netty.DisposableServer;

/**
 * Starts the floor: the proxy on its port, readiness and JVM metrics on its management
 * port; on SIGTERM stops accepting, lets requests in flight finish (up to 10 s), exits. A
 * setting that cannot be used ends start-up with a message naming it (exit 2).
 */
public final class FloorApplication {

	private static final Duration GRACE = Duration.ofSeconds(10);

	private FloorApplication() {
	}

	public static void main(String[] args) throws Exception {
		FloorSettings settings;
		try {
			settings = FloorSettings.from(System.getenv());
		}
		catch (IllegalArgumentException ex) {
			System.err.println("floor: " + ex.getMessage());
			System.exit(2);
			return;
		}
		// Before the first event loop exists: Reactor Netty and Netty read these once. A
		// -D on the command line wins.
		settings.systemProperties().forEach((key, value) -> {
			if (System.getProperty(key) == null) {
				System.setProperty(key, value);
			}
		});
		FloorProxy proxy = new FloorProxy(settings.upstream());
		DisposableServer server = proxy.bind(settings.address(), settings.port());
		ManagementServer management = new ManagementServer(settings.managementAddress(), settings.managementPort(),
				() -> !server.isDisposed());
		System.out.printf("floor: proxy on %s:%d -> %s, %s event loop(s), accept threads %s; management on %s:%d%n",
				settings.address(), server.port(), settings.upstream(),
				System.getProperty("reactor.netty.ioWorkerCount"), System.getProperty("reactor.netty.ioSelectCount"),
				settings.managementAddress(), management.port());
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			server.disposeNow(GRACE);
			proxy.close();
			management.close();
		}, "floor-shutdown"));
		server.onDispose().block();
	}

}
