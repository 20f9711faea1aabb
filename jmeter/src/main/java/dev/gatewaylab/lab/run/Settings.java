package dev.gatewaylab.lab.run;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything a bench run was asked to do; written verbatim into run.json. */
public record Settings(int repetitions, int durationSeconds, int warmupSeconds, int threads, double rate,
                       int rampupSeconds, List<Target> targets, Map<String, String> jmeterProperties,
                       Path labHome, Path resultsRoot, int metricsPort, List<String> remoteHosts, boolean quick,
                       String experiment, boolean dashboards, Catalog catalog) {

    /** Properties for one plan run against a target (what {@code jmeter -J...} would get). */
    public Map<String, String> propertiesFor(Target target, int duration, int threadCount) {
        Map<String, String> p = new LinkedHashMap<>(jmeterProperties);
        p.put("host", target.host());
        p.put("port", Integer.toString(target.port()));
        p.put("protocol", target.protocol());
        p.put("threads", Integer.toString(threadCount));
        p.put("duration", Integer.toString(duration));
        p.put("rampup", Integer.toString(rampupSeconds));
        p.put("rate", rate == Math.rint(rate) ? Long.toString((long) rate) : Double.toString(rate));
        p.put("target", target.name());
        return p;
    }

    public Path plansDir() {
        return labHome.resolve("jmeter").resolve("plans");
    }

    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("repetitions", repetitions);
        m.put("duration_s", durationSeconds);
        m.put("warmup_s", warmupSeconds);
        m.put("threads", threads);
        m.put("rate", rate);
        m.put("model", rate > 0 ? "open (Open Model Thread Group, " + rate + " req/s)" : "closed (" + threads + " threads)");
        m.put("rampup_s", rampupSeconds);
        m.put("quick", quick);
        m.put("experiment", experiment);
        m.put("targets", targets.stream().map(t -> Map.of("name", t.name(), "plan", t.plan(), "url", t.url().toString()))
                .toList());
        m.put("jmeter_properties", jmeterProperties);
        m.put("remote_hosts", remoteHosts);
        m.put("metrics_port", metricsPort);
        m.put("jmeter_dashboards", dashboards);
        return m;
    }
}
