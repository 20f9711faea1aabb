package dev.gatewaylab.lab.bench;

import dev.gatewaylab.lab.run.LabException;
import dev.gatewaylab.lab.run.Target;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A bench experiment: one service is restarted in each variant ({@code lab down <service>; VAR=.. lab up <service>}),
 * and the targets of the given kinds are measured against it, warmed until steady, interleaved and repeated. The
 * first variant is the baseline every other one is compared with. {@code plan} overrides the targets' plan;
 * {@code openRate} > 0 measures in the open model at that arrival rate (latency and errors are the answer, not TPS).
 */
record Experiment(String name, String summary, String service, List<String> kinds, String plan, double openRate,
                  List<Variant> variants) {

    /** One arm of the experiment: a name, the environment the service is restarted with, and what that changes. */
    record Variant(String name, Map<String, String> env, String what) {
    }

    static final List<String> NAMES = List.of("logging", "tuning", "virtual-threads", "apm");

    /** The experiment called {@code name}, or a usage error listing the ones there are. */
    static Experiment named(String name) {
        return switch (name) {
            case "logging" -> logging();
            case "tuning" -> Tuning.experiment();
            case "virtual-threads" -> virtualThreads();
            case "apm" -> apm();
            default -> throw new LabException("unknown experiment '" + name + "'",
                    "use one of: " + String.join(", ", NAMES) + " (e.g. ./lab bench --experiment logging)");
        };
    }

    /** The field report's question, "Logback or Log4j2 async?": the access log off, Logback, Log4j2 sync and async. */
    static Experiment logging() {
        return new Experiment("logging", "the gateway's access log: off (baseline), Logback async, Log4j2 sync, Log4j2 "
                + "async (the default)", "gateway", List.of("gateway"), null, 0, List.of(
                new Variant("off", env("GATEWAY_LOGGING_MODE", "off"), "no access log"),
                new Variant("logback", env("GATEWAY_LOGGING_MODE", "async", "GATEWAY_LOGGING_BACKEND", "logback"),
                        "Logback AsyncAppender"),
                new Variant("log4j2-sync", env("GATEWAY_LOGGING_MODE", "sync", "GATEWAY_LOGGING_BACKEND", "log4j2"),
                        "Log4j2, appended on the event loop"),
                new Variant("log4j2-async", env("GATEWAY_LOGGING_MODE", "async", "GATEWAY_LOGGING_BACKEND", "log4j2"),
                        "Log4j2 async loggers (the default)")));
    }

    /**
     * The Vert.x field report's slow upstream: study-service's /slow endpoint (200–800 ms) at 600 arrivals/s, open
     * model — about 300 requests in flight — directly and through the gateway, with study-service on platform
     * threads (Tomcat's 200) and on virtual threads (needs Java 21+: ./lab refuses them on 17).
     */
    static Experiment virtualThreads() {
        return new Experiment("virtual-threads", "study-service's slow endpoint at 600 req/s (open model), direct and "
                + "through the gateway, platform vs virtual threads", "study-service", List.of("direct", "gateway"),
                "slow-upstream", 600, List.of(
                new Variant("platform", env("STUDY_SERVICE_VIRTUAL_THREADS", "false"), "Tomcat's 200 platform threads"),
                new Variant("virtual", env("STUDY_SERVICE_VIRTUAL_THREADS", "true"), "a virtual thread per request")));
    }

    /**
     * What an APM agent costs before it goes to production: the gateway without and with the Scouter Java agent
     * ({@code LAB_APM=scouter}: ./lab attaches it and starts a local collector, docs/compose.md).
     */
    static Experiment apm() {
        return new Experiment("apm", "the gateway without (baseline) and with the Scouter APM agent", "gateway",
                List.of("gateway"), null, 0, List.of(
                new Variant("off", env("LAB_APM", "off"), "no agent"),
                new Variant("scouter", env("LAB_APM", "scouter"), "Scouter Java agent, reporting to a local collector")));
    }

    /**
     * This experiment with only the named variants (comma-separated; the baseline is always kept), or all when
     * {@code names} is null.
     */
    Experiment select(String names) {
        if (names == null) {
            return this;
        }
        List<String> wanted = List.of(names.split(",", -1)).stream().map(String::trim).toList();
        for (String w : wanted) {
            if (variants.stream().noneMatch(v -> v.name().equals(w))) {
                throw new LabException("experiment " + name + " has no variant '" + w + "'", "use some of: "
                        + String.join(",", variants.stream().map(Variant::name).toList()));
            }
        }
        List<Variant> kept = new ArrayList<>(List.of(variants.get(0)));
        variants.stream().skip(1).filter(v -> wanted.contains(v.name())).forEach(kept::add);
        return new Experiment(name, summary, service, kinds, plan, openRate, kept);
    }

    /**
     * One target per variant and kind: named after the variant (one kind) or {@code <variant>-<kind>}, pointing at
     * that kind's URL, restarted with the variant's environment.
     */
    List<Target> targets(Function<String, Target> ofKind) {
        List<Target> out = new ArrayList<>();
        for (Variant v : variants) {
            for (String kind : kinds) {
                String targetName = kinds.size() == 1 ? v.name() : v.name() + "-" + kind;
                out.add(ofKind.apply(kind).variant(targetName, plan, v.env()));
            }
        }
        return out;
    }

    static Map<String, String> env(String... keyValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return m;
    }
}
