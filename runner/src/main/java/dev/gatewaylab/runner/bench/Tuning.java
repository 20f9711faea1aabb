package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.bench.Experiment.Variant;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The tuning experiment: each of the gateway's cost levers (docs/configuration.md,
 * docs/gateway-cost.md) turned back one at a time against today's defaults — the table of
 * what each default is worth, and of the levers that do nothing.
 */
final class Tuning {

	private static final Pattern JAVA_VERSION = Pattern.compile("^JAVA_VERSION=\"([^\"]*)\"", Pattern.MULTILINE);

	private Tuning() {
	}

	static Experiment experiment() {
		List<Variant> v = new ArrayList<>();
		v.add(new Variant("defaults", Experiment.env(), "today's defaults (baseline)"));
		v.add(new Variant("access-log-off", Experiment.env("GATEWAY_LOGGING_MODE", "off"), "no access log"));
		v.add(new Variant("observations-on",
				Experiment.env("GATEWAY_SERVER_OBSERVATION", "true", "GATEWAY_CLIENT_OBSERVATION", "true"),
				"WebFlux server and gateway client observations on"));
		v.add(new Variant("no-filter-cache", Experiment.env("GATEWAY_ROUTE_FILTER_CACHE", "false"),
				"route filters sorted per request"));
		v.add(new Variant("unused-filters-on", Experiment.env("GATEWAY_UNUSED_FILTERS", "true"),
				"websocket/forward/cached-body global filters and the weight predicate back"));
		v.add(new Variant("http2-on", Experiment.env("GATEWAY_HTTP2", "true"),
				"h2c enabled (gRPC header filters back)"));
		v.add(new Variant("event-loops-4", Experiment.env("GATEWAY_IO_WORKER_COUNT", "4"),
				"Reactor Netty's default event-loop count, max(cores, 4)"));
		v.add(new Variant("accept-on-event-loop", Experiment.env("GATEWAY_IO_SELECT_COUNT", "-1"),
				"connections accepted on the event loop (Reactor Netty's default) instead of a thread of their own"));
		v.add(new Variant("nio", Experiment.env("GATEWAY_NETTY_NATIVE", "false"), "NIO instead of epoll"));
		v.add(new Variant("g1", Experiment.env("GATEWAY_JAVA_OPTS", "-Xmx256m -Xms256m -XX:+UseG1GC"),
				"G1 (the JVM default) instead of ParallelGC"));
		v.add(new Variant("framework-routing", Experiment.env("GATEWAY_FRAMEWORK_ROUTING", "true"),
				"Spring Cloud Gateway's NettyRoutingFilter and NettyWriteResponseFilter instead of the gateway's own"));
		v.add(new Variant("framework-route-lookup", Experiment.env("GATEWAY_FRAMEWORK_ROUTE_LOOKUP", "true"),
				"Spring Cloud Gateway's route lookup (filterWhen per request) instead of the gateway's loop"));
		v.add(new Variant("framework-dispatch", Experiment.env("GATEWAY_FRAMEWORK_DISPATCH", "true"),
				"every request through WebFlux's dispatcher, also when its route is known at once"));
		v.add(new Variant("framework-handler-order", Experiment.env("GATEWAY_HANDLER_MAPPING_ORDER", "1"),
				"Spring Cloud Gateway's handler-mapping order: WebFlux's controller mapping tried first"));
		v.add(new Variant("framework-retry", Experiment.env("GATEWAY_RETRY_FILTER", "Retry"),
				"Spring Cloud Gateway's Retry filter instead of UpstreamRetry"));
		v.add(new Variant("log-wait-timeout", Experiment.env("GATEWAY_LOG_WAIT_STRATEGY", "Timeout"),
				"async logger thread signalled for every line (Log4j2's default) instead of parking 5 ms"));
		v.add(new Variant("leak-detection-simple", Experiment.env("GATEWAY_NETTY_LEAK_DETECTION", "simple"),
				"Netty's default buffer leak detection"));
		otherJdk().ifPresent(jdk -> v.add(new Variant("jdk-" + version(jdk).orElse(0),
				Experiment.env("GATEWAY_JAVA_HOME", jdk.toString()), "the gateway on another installed JDK")));
		return new Experiment("tuning", "each gateway cost lever turned back against today's defaults", "gateway",
				List.of("gateway"), null, 0, v);
	}

	/**
	 * An installed JDK of another major version than the one the lab runs the apps on
	 * ({@code LAB_JAVA_HOME}, which ./lab exports after choosing it): the newest such
	 * under /usr/lib/jvm.
	 */
	static Optional<Path> otherJdk() {
		String chosen = System.getenv("LAB_JAVA_HOME");
		Optional<Integer> current = chosen == null || chosen.isBlank() ? Optional.of(Runtime.version().feature())
				: version(Path.of(chosen));
		Path jvms = Path.of("/usr/lib/jvm");
		if (!Files.isDirectory(jvms)) {
			return Optional.empty();
		}
		Map<Path, Integer> majors = new HashMap<>();
		try (Stream<Path> dirs = Files.list(jvms)) {
			dirs.filter(d -> Files.isExecutable(d.resolve("bin/java")) && !Files.isSymbolicLink(d))
				.forEach(d -> version(d).filter(v -> !Optional.of(v).equals(current)).ifPresent(v -> majors.put(d, v)));
		}
		catch (IOException e) {
			return Optional.empty();
		}
		return majors.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey);
	}

	/** The major version in a JDK's {@code release} file. */
	static Optional<Integer> version(Path javaHome) {
		return javaVersion(javaHome).map(v -> v.replaceFirst("\\D.*", ""))
			.filter(v -> !v.isEmpty())
			.map(Integer::parseInt);
	}

	/** {@code JAVA_VERSION} of a JDK's {@code release} file ("25.0.3"). */
	static Optional<String> javaVersion(Path javaHome) {
		try {
			Matcher m = JAVA_VERSION.matcher(Files.readString(javaHome.resolve("release")));
			return m.find() ? Optional.of(m.group(1)) : Optional.empty();
		}
		catch (IOException | RuntimeException e) {
			return Optional.empty();
		}
	}

}
