package dev.gatewaylab.lab.bench;

import dev.gatewaylab.lab.run.LabException;
import dev.gatewaylab.lab.run.Target;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A bench experiment: the targets are variants of the gateway, each measured after restarting it with its own
 * environment ({@code lab down gateway; VAR=.. lab up gateway}), warmed until steady, interleaved and repeated. The
 * first variant is the baseline every other one is compared with (TPS ratio per repetition, CPU per request, p99).
 */
record Experiment(String name, String summary, List<Variant> variants) {

    /** One arm of the experiment: a name, the environment the gateway is restarted with, and an optional plan. */
    record Variant(String name, Map<String, String> env, String plan, String what) {

        Variant(String name, Map<String, String> env, String what) {
            this(name, env, null, what);
        }
    }

    static final List<String> NAMES = List.of("logging", "tuning", "apm");

    /** The experiment called {@code name}, or a usage error listing the ones there are. */
    static Experiment named(String name) {
        return switch (name) {
            case "logging" -> logging();
            case "tuning" -> Tuning.experiment();
            case "apm" -> apm();
            default -> throw new LabException("unknown experiment '" + name + "'",
                    "use one of: " + String.join(", ", NAMES) + " (e.g. ./lab bench --experiment logging)");
        };
    }

    /** The field report's question, "Logback or Log4j2 async?": the access log off, Logback, Log4j2 sync and async. */
    static Experiment logging() {
        return new Experiment("logging", "the gateway's access log: off (baseline), Logback async, Log4j2 sync, Log4j2 "
                + "async (the default)", List.of(
                new Variant("off", env("GATEWAY_LOGGING_MODE", "off"), "no access log"),
                new Variant("logback", env("GATEWAY_LOGGING_MODE", "async", "GATEWAY_LOGGING_BACKEND", "logback"),
                        "Logback AsyncAppender"),
                new Variant("log4j2-sync", env("GATEWAY_LOGGING_MODE", "sync", "GATEWAY_LOGGING_BACKEND", "log4j2"),
                        "Log4j2, appended on the event loop"),
                new Variant("log4j2-async", env("GATEWAY_LOGGING_MODE", "async", "GATEWAY_LOGGING_BACKEND", "log4j2"),
                        "Log4j2 async loggers (the default)")));
    }

    /**
     * What an APM agent costs before it goes to production: the gateway without and with the Scouter Java agent
     * ({@code LAB_APM=scouter}: ./lab attaches it and starts a local collector, docs/compose.md).
     */
    static Experiment apm() {
        return new Experiment("apm", "the gateway without (baseline) and with the Scouter APM agent", List.of(
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
        return new Experiment(name, summary, kept);
    }

    /** One target per variant, all pointing at the gateway. */
    List<Target> targets(Target gateway) {
        List<Target> out = new ArrayList<>();
        for (Variant v : variants) {
            String plan = v.plan() == null ? null : Path.of(gateway.plan()).resolveSibling(v.plan() + ".jmx").toString();
            out.add(gateway.variant(v.name(), plan, v.env()));
        }
        return out;
    }

    /** Variant name → what it changes, for the report. */
    Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        variants.forEach(v -> m.put(v.name(), v.what() + (v.env().isEmpty() ? "" : " " + v.env())));
        return m;
    }

    static Map<String, String> env(String... keyValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return m;
    }
}
