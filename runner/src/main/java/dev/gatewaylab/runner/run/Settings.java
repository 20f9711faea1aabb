package dev.gatewaylab.runner.run;

import dev.gatewaylab.runner.remote.Remote;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a run was asked to do; written verbatim into run.json. {@code rate} is the
 * arrival rate of the equal-load latency phase (0 = a fifth of the slowest target's
 * measured throughput), or of every measured repetition when {@code openModel} (an
 * open-model experiment); {@code latencyRepetitions} 0 skips the equal-load phase.
 */
public record Settings(int repetitions, int durationSeconds, int warmupSeconds, int warmupMaxSeconds, int threads,
		double rate, boolean openModel, int latencyRepetitions, int rampupSeconds, List<Target> targets,
		Map<String, String> jmeterProperties, Path labHome, Path resultsRoot, String metricsHost, int metricsPort,
		Remote remote, boolean quick, String experiment, boolean dashboards, Catalog catalog) {

	/**
	 * The plan properties the runner sets itself for every plan run
	 * ({@link #propertiesFor}): a -J value of one of them is read as the command's
	 * default, then dropped.
	 */
	public static final List<String> RUNNER_KEYS = List.of("threads", "duration", "rate", "host", "port", "protocol",
			"rampup", "target");

	/**
	 * Properties for one plan run against a target (what {@code jmeter -J...} would get);
	 * rate 0 = closed model.
	 */
	public Map<String, String> propertiesFor(Target target, int duration, int threadCount, double arrivalRate) {
		Map<String, String> p = new LinkedHashMap<>(jmeterProperties);
		p.put("host", target.host());
		p.put("port", Integer.toString(target.port()));
		p.put("protocol", target.protocol());
		p.put("threads", Integer.toString(threadCount));
		p.put("duration", Integer.toString(duration));
		p.put("rampup", Integer.toString(rampupSeconds));
		p.put("rate", arrivalRate == Math.rint(arrivalRate) ? Long.toString((long) arrivalRate)
				: Double.toString(arrivalRate));
		p.put("target", target.name());
		return p;
	}

	/**
	 * The remote engines' host[:port] as given to --remote; empty = the in-process
	 * engine.
	 */
	public List<String> remoteHosts() {
		return remote.hosts();
	}

	public Path plansDir() {
		return plansDir(labHome);
	}

	/**
	 * The plans folder of a lab home: {@code jmeter/plans}, where stock JMeter users
	 * expect them.
	 */
	public static Path plansDir(Path labHome) {
		return labHome.resolve("jmeter").resolve("plans");
	}

	public Map<String, Object> describe() {
		Map<String, Object> m = new LinkedHashMap<>();
		m.put("repetitions", repetitions);
		m.put("duration_s", durationSeconds);
		m.put("warmup_s", warmupSeconds);
		m.put("warmup_max_s", warmupMaxSeconds);
		m.put("threads", threads);
		m.put("rate", rate);
		m.put("model", openModel ? "open at " + rate + " req/s (warm-up: closed, " + threads + " threads)"
				: "closed (" + threads + " threads)" + (latencyRepetitions > 0
						? ", then open at " + (rate > 0 ? rate + " req/s" : "a fifth of the slowest target's TPS")
						: ""));
		m.put("latency_repetitions", latencyRepetitions);
		m.put("rampup_s", rampupSeconds);
		m.put("quick", quick);
		m.put("experiment", experiment);
		m.put("targets",
				targets.stream()
					.map(t -> Map.of("name", t.name(), "plan", t.plan(), "url", t.url().toString()))
					.toList());
		m.put("jmeter_properties", jmeterProperties);
		m.put("remote_hosts", remote.hosts());
		if (remote.active()) {
			m.put("remote", remote.describe());
		}
		m.put("metrics_host", metricsHost);
		m.put("metrics_port", metricsPort);
		m.put("jmeter_dashboards", dashboards);
		return m;
	}
}
