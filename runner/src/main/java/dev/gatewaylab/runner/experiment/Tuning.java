package dev.gatewaylab.runner.experiment;

import dev.gatewaylab.runner.experiment.Experiment.Variant;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The tuning experiment: each of the gateway's cost levers (docs/configuration.md,
 * docs/gateway-cost.md) turned back one at a time against today's defaults — the table of
 * what each default is worth, and of the levers that do nothing.
 */
public final class Tuning {

	private static final Pattern JAVA_VERSION = Pattern.compile("^JAVA_VERSION=\"([^\"]*)\"", Pattern.MULTILINE);

	/**
	 * Variants that try a setting away from the libraries' defaults, which the gateway
	 * keeps too: not part of {@code levers-off}.
	 */
	static final Set<String> NOT_LEVERS = Set.of("http2-on", "nio");

	private Tuning() {
	}

	static Experiment experiment() {
		List<Variant> v = new ArrayList<>();
		v.add(new Variant("defaults", Experiment.env(), "today's defaults (baseline)"));
		v.add(new Variant("access-log-off", Experiment.env("GATEWAY_LOGGING_MODE", "off"), "no access log"));
		List<Variant> levers = levers();
		v.addAll(levers);
		v.add(leversOff(levers));
		otherJdkVariant("GATEWAY_JAVA_HOME", 0, "the gateway on another installed JDK").ifPresent(v::add);
		return new Experiment("tuning", "each gateway cost lever turned back against today's defaults", "gateway",
				List.of("gateway"), null, 0, v);
	}

	/**
	 * Each lever turned back alone: the setting or component of Spring Cloud Gateway,
	 * Spring Boot, Reactor Netty, Netty, Log4j2 or the JVM that the gateway's default
	 * replaces — and two settings whose default the gateway keeps ({@link #NOT_LEVERS}).
	 */
	static List<Variant> levers() {
		List<Variant> v = new ArrayList<>();
		v.add(new Variant("observations-on",
				Experiment.env("GATEWAY_SERVER_OBSERVATION", "true", "GATEWAY_CLIENT_OBSERVATION", "true",
						"GATEWAY_OBSERVATION_IGNORED_METERS", ""),
				"WebFlux server and gateway client observations on, with their long-task timer"));
		v.add(new Variant("no-filter-cache", Experiment.env("GATEWAY_ROUTE_FILTER_CACHE", "false"),
				"route filters sorted per request"));
		v.add(new Variant("unused-filters-on", Experiment.env("GATEWAY_UNUSED_FILTERS", "true"),
				"websocket/forward/cached-body global filters and the weight predicate back"));
		v.add(new Variant("http2-on", Experiment.env("GATEWAY_HTTP2", "true"),
				"h2c enabled (gRPC header filters back)"));
		v.add(new Variant("event-loops-4", Experiment.env("GATEWAY_IO_WORKER_COUNT", "default"),
				"Reactor Netty's default event-loop count, max(cores, 4)"));
		v.add(new Variant("accept-on-event-loop", Experiment.env("GATEWAY_IO_SELECT_COUNT", "default"),
				"connections accepted on the event loop (Reactor Netty's default) instead of a thread of their own"));
		v.add(new Variant("nio", Experiment.env("GATEWAY_NETTY_NATIVE", "false"), "NIO instead of epoll"));
		v.add(new Variant("g1", Experiment.env("GATEWAY_JAVA_OPTS", "-Xmx256m -Xms256m -XX:+UseG1GC"),
				"G1 (the JVM default) instead of ParallelGC"));
		v.add(new Variant("framework-routing", Experiment.env("GATEWAY_LEVERS_ROUTING_ENABLED", "false"),
				"Spring Cloud Gateway's NettyRoutingFilter and NettyWriteResponseFilter (the routing lever off)"));
		v.add(new Variant("framework-route-lookup", Experiment.env("GATEWAY_LEVERS_ROUTE_LOOKUP_ENABLED", "false"),
				"Spring Cloud Gateway's route lookup, filterWhen per request (the route-lookup lever off)"));
		v.add(new Variant("framework-dispatch", Experiment.env("GATEWAY_LEVERS_DISPATCH_ENABLED", "false"),
				"every request through WebFlux's dispatcher (the dispatch lever off)"));
		v.add(new Variant("framework-handler-order", Experiment.env("GATEWAY_HANDLER_MAPPING_ORDER", "1"),
				"Spring Cloud Gateway's handler-mapping order: WebFlux's controller mapping tried first"));
		v.add(new Variant("framework-retry", Experiment.env("GATEWAY_LEVERS_RETRY_ENABLED", "false"),
				"Spring Cloud Gateway's Retry filter (the retry lever off)"));
		v.add(new Variant("framework-request-url", Experiment.env("GATEWAY_LEVERS_REQUEST_URL_ENABLED", "false"),
				"Spring Cloud Gateway's RouteToRequestUrlFilter (the request-url lever off)"));
		v.add(new Variant("framework-hop-by-hop-headers",
				Experiment.env("GATEWAY_LEVERS_HOP_BY_HOP_HEADERS_ENABLED", "false"),
				"Spring Cloud Gateway's RemoveHopByHopHeadersFilter (the hop-by-hop headers lever off)"));
		v.add(new Variant("framework-forwarded-headers",
				Experiment.env("GATEWAY_LEVERS_FORWARDED_HEADERS_ENABLED", "false"),
				"Spring Cloud Gateway's forwarded-header removal filters (the forwarded headers lever off)"));
		v.add(new Variant("log-wait-timeout", Experiment.env("GATEWAY_LOG_WAIT_STRATEGY", "Timeout"),
				"async logger thread signalled for every line (Log4j2's default) instead of parking 5 ms"));
		v.add(new Variant("leak-detection-simple", Experiment.env("GATEWAY_NETTY_LEAK_DETECTION", "simple"),
				"Netty's default buffer leak detection"));
		return v;
	}

	/**
	 * Every lever turned back at once, the JVM on its defaults too: the gateway's
	 * features on what Spring Cloud Gateway and Spring Boot give by default — what the
	 * levers together save, with the features equal.
	 */
	static Variant leversOff(List<Variant> levers) {
		Map<String, String> env = new LinkedHashMap<>();
		levers.stream()
			.filter((lever) -> !NOT_LEVERS.contains(lever.name()))
			.forEach((lever) -> env.putAll(lever.env()));
		env.put("GATEWAY_LEVERS_ENABLED", "false");
		env.put("GATEWAY_JAVA_OPTS", "-Xmx256m");
		return new Variant("levers-off", env,
				"every lever turned back at once (framework components, library and JVM defaults), features kept");
	}

	/**
	 * An installed JDK of another major version than the one the lab runs the apps on
	 * ({@code LAB_JAVA_HOME}, which ./lab exports after choosing it): the newest such
	 * under /usr/lib/jvm.
	 */
	/**
	 * The variant that runs a service on another installed JDK ({@link #otherJdk()}),
	 * when there is one of at least {@code minimumVersion}.
	 * @param javaHomeVariable the service's JDK variable
	 * @param minimumVersion the oldest JDK the service runs on
	 * @param description what the variant is
	 * @return the variant, {@code jdk-<version>}
	 */
	static Optional<Variant> otherJdkVariant(String javaHomeVariable, int minimumVersion, String description) {
		return otherJdk().flatMap(jdk -> {
			int version = version(jdk).orElse(0);
			return (version >= minimumVersion) ? Optional
				.of(new Variant("jdk-" + version, Experiment.env(javaHomeVariable, jdk.toString()), description))
					: Optional.empty();
		});
	}

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
	public static Optional<String> javaVersion(Path javaHome) {
		try {
			Matcher m = JAVA_VERSION.matcher(Files.readString(javaHome.resolve("release")));
			return m.find() ? Optional.of(m.group(1)) : Optional.empty();
		}
		catch (IOException | RuntimeException e) {
			return Optional.empty();
		}
	}

}
