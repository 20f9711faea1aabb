package dev.gatewaylab.runner.run;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The lab's services, ports and load targets, from {@code lab.properties} at the
 * repository root (the same file {@code ./lab}, e2e and the plan generator read); the
 * copy built into the jar when the lab home has none. {@code defaultTargets}: what bench
 * and sweep measure without --targets ({@code default-targets}; every target when
 * absent).
 */
public record Catalog(Map<String, Service> services, Map<String, TargetKind> targets, Map<String, PlanRequest> requests,
		List<String> defaultTargets) {

	public Catalog(Map<String, Service> services, Map<String, TargetKind> targets) {
		this(services, targets, Map.of(), List.copyOf(targets.keySet()));
	}

	public static final String FILE = "lab.properties";

	/** A process the lab starts: its port and management (actuator) port. */
	public record Service(String name, int port, int managementPort) {
	}

	/**
	 * A named load target: the service it measures, the services it needs running, its
	 * default plan.
	 */
	public record TargetKind(String name, String service, List<String> needs, String plan) {
	}

	/**
	 * The kind of a target: by its name, or — for an experiment's variant, named after
	 * the variant — by the service that serves it; null for targets the catalog does not
	 * know (nginx).
	 */
	public TargetKind kindOf(Target t) {
		return targets.containsKey(t.name()) ? targets.get(t.name())
				: targets.values().stream().filter(k -> k.service().equals(t.service())).findFirst().orElse(null);
	}

	public static Catalog load(Path labHome) {
		Properties p = new Properties();
		Path file = labHome.resolve(FILE);
		try {
			if (Files.isRegularFile(file)) {
				try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
					p.load(r);
				}
			}
			else {
				try (InputStream in = Catalog.class.getResourceAsStream("/" + FILE)) {
					if (in == null) {
						throw new LabException("no " + file + " and no built-in copy",
								"set LAB_HOME to the repository root");
					}
					p.load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
				}
			}
			return parse(p);
		}
		catch (IOException | RuntimeException e) {
			if (e instanceof LabException le) {
				throw le;
			}
			throw new LabException("cannot read " + file + ": " + e.getMessage(),
					"fix the file (see the comments in it)");
		}
	}

	public static Catalog parse(Properties p) {
		Map<String, Service> services = new LinkedHashMap<>();
		for (String name : list(p, "services")) {
			services.put(name, new Service(name, port(p, "service." + name + ".port"),
					port(p, "service." + name + ".management-port")));
		}
		Map<String, TargetKind> targets = new LinkedHashMap<>();
		for (String name : list(p, "targets")) {
			String service = required(p, "target." + name + ".service");
			List<String> needs = list(p, "target." + name + ".needs");
			for (String s : needs) {
				if (!services.containsKey(s)) {
					throw new IllegalArgumentException("target." + name + ".needs names unknown service '" + s + "'");
				}
			}
			targets.put(name, new TargetKind(name, service, needs, required(p, "target." + name + ".plan")));
		}
		Map<String, PlanRequest> requests = new LinkedHashMap<>();
		for (String key : p.stringPropertyNames()) {
			if (key.startsWith("plan.") && key.endsWith(".request")) {
				String plan = key.substring("plan.".length(), key.length() - ".request".length());
				String expect = p.getProperty("plan." + plan + ".expect", "200").trim();
				requests.put(plan, PlanRequest.parse(p.getProperty(key), 1, 10_000, Integer.parseInt(expect)));
			}
		}
		List<String> defaults = p.getProperty("default-targets") == null ? List.copyOf(targets.keySet())
				: list(p, "default-targets");
		for (String name : defaults) {
			if (!targets.containsKey(name)) {
				throw new IllegalArgumentException("default-targets names unknown target '" + name + "'");
			}
		}
		return new Catalog(services, targets, requests, defaults);
	}

	/**
	 * The request a plan sends (lab.properties {@code plan.<name>.request}), its ids from
	 * the plan properties {@code idMin}/{@code idMax} when given; null when the plan
	 * declares none.
	 */
	public PlanRequest request(String plan, Map<String, String> planProperties) {
		PlanRequest r = requests.get(plan);
		if (r == null) {
			return null;
		}
		try {
			return r.withIds(Integer.parseInt(planProperties.getOrDefault("idMin", Integer.toString(r.idMin()))),
					Integer.parseInt(planProperties.getOrDefault("idMax", Integer.toString(r.idMax()))));
		}
		catch (NumberFormatException e) {
			throw new LabException("invalid -J idMin/idMax: " + e.getMessage(), "use whole numbers, e.g. -J idMax=500");
		}
	}

	public Service service(String name) {
		Service s = services.get(name);
		if (s == null) {
			throw new LabException("unknown service '" + name + "'",
					"choose from " + String.join(",", services.keySet()));
		}
		return s;
	}

	private static List<String> list(Properties p, String key) {
		return Arrays.stream(required(p, key).split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
	}

	private static String required(Properties p, String key) {
		String v = p.getProperty(key);
		if (v == null || v.isBlank()) {
			throw new IllegalArgumentException("missing " + key);
		}
		return v.trim();
	}

	private static int port(Properties p, String key) {
		String v = required(p, key);
		try {
			int port = Integer.parseInt(v);
			if (port < 1 || port > 65535) {
				throw new NumberFormatException();
			}
			return port;
		}
		catch (NumberFormatException e) {
			throw new IllegalArgumentException(key + "=" + v + " is not a port (1..65535)");
		}
	}
}
