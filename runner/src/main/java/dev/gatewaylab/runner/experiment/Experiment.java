package dev.gatewaylab.runner.experiment;

import dev.gatewaylab.runner.run.LabException;
import dev.gatewaylab.runner.run.Target;
import dev.gatewaylab.runner.run.TargetOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A bench experiment: one service is restarted in each variant
 * ({@code lab down <service>; VAR=.. lab up <service>}), and the targets of the given
 * kinds are measured against it, warmed until steady, interleaved and repeated. The first
 * variant is the baseline every other one is compared with — or, with a {@link Toggle},
 * every variant is compared with itself switched off at run time in the same JVM.
 * {@code plan} overrides the targets' plan; {@code openRate} > 0 measures in the open
 * model at that arrival rate (latency and errors are the answer, not TPS).
 * {@code tolerance} > 0 adds a verdict per variant: within that share of the baseline's
 * TPS, or not, or undecided.
 */
public record Experiment(String name, String summary, String service, List<String> kinds, String plan, double openRate,
		double tolerance, List<Variant> variants, Toggle toggle) {

	Experiment(String name, String summary, String service, List<String> kinds, String plan, double openRate,
			List<Variant> variants) {
		this(name, summary, service, kinds, plan, openRate, 0, variants, null);
	}

	Experiment(String name, String summary, String service, List<String> kinds, String plan, double openRate,
			double tolerance, List<Variant> variants) {
		this(name, summary, service, kinds, plan, openRate, tolerance, variants, null);
	}

	/**
	 * Seconds per measured repetition unless --duration says otherwise: a switchback
	 * needs several segments.
	 */
	public int defaultDurationSeconds(boolean quick) {
		return toggle == null ? (quick ? 3 : 5) : (quick ? 4 : 60);
	}

	/**
	 * One arm of the experiment: a name, the environment the service is restarted with,
	 * and what that changes; {@code properties} are plan properties it needs (later
	 * variants win, user {@code -J} wins over all), and {@code input} a file it needs,
	 * made by a {@code lab} command when missing.
	 */
	record Variant(String name, Map<String, String> env, String what, Map<String, String> properties, Input input) {

		Variant(String name, Map<String, String> env, String what) {
			this(name, env, what, Map.of(), null);
		}
	}

	/**
	 * A file an experiment reads, and the {@code ./lab} command line that writes it
	 * ({@code deny-list generate ..}).
	 */
	public record Input(Path file, List<String> labArgs) {
	}

	static final List<String> NAMES = List.of("logging", "tuning", "tuning-mvc", "virtual-threads", "apm", "deny-list",
			"tracing");

	/**
	 * The experiment called {@code name}, or a usage error listing the ones there are.
	 */
	public static Experiment named(String name) {
		return named(name, TargetOptions.labHome());
	}

	/**
	 * The experiment called {@code name}, with its generated inputs under
	 * {@code labHome}/.lab.
	 */
	public static Experiment named(String name, Path labHome) {
		return switch (name) {
			case "logging" -> logging();
			case "tuning" -> Tuning.experiment();
			case "tuning-mvc" -> TuningMvc.experiment();
			case "virtual-threads" -> virtualThreads();
			case "apm" -> apm();
			case "deny-list" -> denyList(labHome);
			case "tracing" -> tracing();
			default -> throw new LabException("unknown experiment '" + name + "'",
					"use one of: " + String.join(", ", NAMES) + " (e.g. ./lab bench --experiment logging)");
		};
	}

	/**
	 * The ip-filter performance report's question, "what does a deny list of 3 M / 30 M
	 * rules cost?", answered on allowed traffic (every request passes the filter and
	 * reaches study-service): the gateway started with 3 M and with 30 M generated rules
	 * ({@code --seed 42}: the 3 M list is the first 3 M rules of the 30 M one, so a
	 * client allowed by 30 M is allowed by 3 M and every variant sends the same
	 * requests), each measured against itself with the filter bypassed at run time
	 * ({@code /actuator/denylist}, the rules stay loaded) in a {@link Switchback}. Every
	 * variant runs the gateway with its default JVM options: the list is memory-mapped,
	 * off the heap. Verdict: within 3 % of the filter bypassed.
	 */
	static Experiment denyList(Path labHome) {
		Path dir = labHome.resolve(".lab").resolve("deny-list");
		List<Variant> variants = new ArrayList<>();
		for (String size : List.of("3m", "30m")) {
			Path rules = dir.resolve(size).resolve("deny-list.txt");
			String count = size.equals("3m") ? "3000000" : "30000000";
			variants.add(new Variant(size,
					env("GATEWAY_DENY_LIST_FILE", rules.toString(), "MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE",
							"health,info,prometheus,denylist"),
					size.replace("m", " M") + " generated rules",
					Map.of("traffic", "allowed", "clients", dir.resolve(size).resolve("client-ips.csv").toString()),
					new Input(rules, List.of("deny-list", "generate", "--rules", count, "--seed", "42", "--out",
							rules.getParent().toString()))));
		}
		return new Experiment("deny-list",
				"the gateway's IP deny list with 3 M and 30 M rules, each against itself "
						+ "with the filter bypassed at run time, allowed clients in X-Forwarded-For",
				"gateway", List.of("gateway"), "deny-list", 0, 0.03, variants,
				new Toggle("off", "the deny filter (bypassed at run time, its rules still loaded)",
						"/actuator/denylist", "{\"enforced\":true}", "{\"enforced\":false}"));
	}

	/** The plan properties of the variants (later ones override earlier ones). */
	public Map<String, String> properties() {
		Map<String, String> p = new LinkedHashMap<>();
		variants.forEach(v -> p.putAll(v.properties()));
		return p;
	}

	/** The inputs the variants read. */
	public List<Input> inputs() {
		return variants.stream().map(Variant::input).filter(Objects::nonNull).toList();
	}

	/**
	 * The loggers endpoint, exposed (on the loopback-only management port) for the runner
	 * to switch the access log.
	 */
	private static final String LOGGERS_EXPOSED = "health,info,prometheus,loggers";

	/**
	 * The gateway-vs-direct JMeter study's question, "Logback or Log4j2 async?", and
	 * "does the access log cost ≤ 3 %?": the gateway started with Logback async, Log4j2
	 * sync and Log4j2 async (the default); in each JVM the access log is switched off and
	 * on every few seconds ({@link Switchback}), so each backend is compared with the
	 * same JVM without it. Verdict: within 3 % of off.
	 */
	static Experiment logging() {
		return new Experiment("logging",
				"the gateway's access log on vs off in the same JVM (switched at run time), "
						+ "with Logback async, Log4j2 sync and Log4j2 async (the default)",
				"gateway", List.of("gateway"), null, 0, 0.03, List.of(
						new Variant("logback",
								env("GATEWAY_LOGGING_MODE", "async", "GATEWAY_LOGGING_BACKEND", "logback",
										"MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE", LOGGERS_EXPOSED),
								"Logback AsyncAppender"),
						new Variant("log4j2-sync",
								env("GATEWAY_LOGGING_MODE", "sync", "GATEWAY_LOGGING_BACKEND", "log4j2",
										"MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE", LOGGERS_EXPOSED),
								"Log4j2, appended on the event loop"),
						new Variant("log4j2-async",
								env("GATEWAY_LOGGING_MODE", "async", "GATEWAY_LOGGING_BACKEND", "log4j2",
										"MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE", LOGGERS_EXPOSED),
								"Log4j2 async loggers (the default)")),
				new Toggle("off", "the access log (its logger's level set to OFF, then back to INFO)",
						"/actuator/loggers/dev.gatewaylab.gateway.access", "{\"configuredLevel\":\"INFO\"}",
						"{\"configuredLevel\":\"OFF\"}"));
	}

	/**
	 * The Vert.x tuning report's slow upstream: study-service's /slow endpoint (200–800
	 * ms) at 600 arrivals/s, open model — about 300 requests in flight — directly and
	 * through the gateway, with study-service on platform threads (Tomcat's 200) and on
	 * virtual threads (needs Java 21+: ./lab refuses them on 17). {@link Through} puts
	 * other paths in front of it (the MVC gateway, the floor).
	 */
	static Experiment virtualThreads() {
		return new Experiment("virtual-threads",
				"study-service's slow endpoint at 600 req/s (open model), direct and "
						+ "through the gateway, platform vs virtual threads",
				"study-service", List.of("direct", "gateway"), "slow-upstream", 600,
				List.of(new Variant("platform", env("STUDY_SERVICE_VIRTUAL_THREADS", "false"),
						"Tomcat's 200 platform threads"),
						new Variant("virtual", env("STUDY_SERVICE_VIRTUAL_THREADS", "true"),
								"a virtual thread per request")));
	}

	/**
	 * What an APM agent costs before it goes to production: the gateway without and with
	 * the Scouter Java agent ({@code LAB_APM=scouter}: ./lab attaches it and starts a
	 * local collector, docs/compose.md).
	 */
	static Experiment apm() {
		return new Experiment("apm", "the gateway without (baseline) and with the Scouter APM agent", "gateway",
				List.of("gateway"), null, 0,
				List.of(new Variant("off", env("LAB_APM", "off"), "no agent"), new Variant("scouter",
						env("LAB_APM", "scouter"), "Scouter Java agent, reporting to a local collector")));
	}

	/**
	 * What distributed tracing costs the gateway: restarted without tracing (baseline,
	 * {@code LAB_TRACING=off}: no tracer at all) and with it on at 0 %, 10 % and 100 %
	 * sampling ({@code LAB_TRACING=zipkin}: spans reported to the local Zipkin server
	 * {@code ./lab} starts). Study-service keeps the tracing it was started with
	 * ({@code ./lab bench --tracing}: on, following the gateway's sampling decision in
	 * {@code traceparent}), so its CPU per request beside the gateway's is the cost
	 * behind it. Verdict: within 10 % of tracing absent.
	 */
	static Experiment tracing() {
		List<Variant> variants = new ArrayList<>();
		variants.add(new Variant("absent", env("LAB_TRACING", "off"), "no tracer (the default)"));
		for (String percent : List.of("0", "10", "100")) {
			String probability = percent.equals("100") ? "1.0" : (percent.equals("10") ? "0.1" : "0.0");
			variants.add(new Variant("sampled-" + percent,
					env("LAB_TRACING", "zipkin", "TRACING_SAMPLING_PROBABILITY", probability),
					"tracing on, " + percent + " % of the requests sampled and reported to Zipkin"));
		}
		return new Experiment("tracing",
				"the gateway without tracing (baseline) and with Micrometer Tracing on at 0 %, 10 % and 100 % sampling, "
						+ "spans to a local Zipkin",
				"gateway", List.of("gateway"), null, 0, 0.10, variants);
	}

	/**
	 * This experiment with only the named variants (comma-separated; the baseline is
	 * always kept), or all when {@code names} is null.
	 */
	public Experiment select(String names) {
		if (names == null) {
			return this;
		}
		List<String> wanted = List.of(names.split(",", -1)).stream().map(String::trim).toList();
		for (String w : wanted) {
			if (variants.stream().noneMatch(v -> v.name().equals(w))) {
				throw new LabException("experiment " + name + " has no variant '" + w + "'",
						"use some of: " + String.join(",", variants.stream().map(Variant::name).toList()));
			}
		}
		// A baseline variant is always kept;
		// with a toggle every variant is its own baseline.
		List<Variant> kept = new ArrayList<>(toggle == null ? List.of(variants.get(0)) : List.of());
		variants.stream().skip(toggle == null ? 1 : 0).filter(v -> wanted.contains(v.name())).forEach(kept::add);
		return new Experiment(name, summary, service, kinds, plan, openRate, tolerance, kept, toggle);
	}

	/**
	 * One target per variant and kind: named after the variant (one kind) or
	 * {@code <variant>-<kind>}, pointing at that kind's URL, restarted with the variant's
	 * environment.
	 */
	public List<Target> targets(Function<String, Target> ofKind) {
		List<Target> out = new ArrayList<>();
		for (Variant v : variants) {
			for (String kind : kinds) {
				String targetName = kinds.size() == 1 ? v.name() : v.name() + "-" + kind;
				out.add(ofKind.apply(kind).variant(targetName, plan, v.env()));
				if (toggle != null) {
					out.add(ofKind.apply(kind).variant(offName(targetName), plan, v.env()));
				}
			}
		}
		return out;
	}

	/** The target of a variant's off arm (with a toggle). */
	public String offName(String targetName) {
		return targetName + "-" + toggle.offSuffix();
	}

	static Map<String, String> env(String... keyValues) {
		Map<String, String> m = new LinkedHashMap<>();
		for (int i = 0; i < keyValues.length; i += 2) {
			m.put(keyValues[i], keyValues[i + 1]);
		}
		return m;
	}
}
