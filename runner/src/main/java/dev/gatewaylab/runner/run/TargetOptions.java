package dev.gatewaylab.runner.run;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine.Option;

/**
 * Options shared by bench and sweep: which targets, where they are, plans, -J properties,
 * results dir, start; and the remote engines ({@link RemoteOptions}).
 */
public class TargetOptions extends RemoteOptions {

	static final String NGINX = "nginx";

	@Option(names = "--targets", split = ",",
			description = "Targets: gateway,direct,monolith,floor,stock,gateway-mvc[,nginx] (default: lab.properties default-targets, gateway,direct,monolith; nginx is added when --nginx-url is given). Defined in lab.properties. With --experiment virtual-threads: the paths measured to the restarted upstream (default direct,gateway).")
	List<String> targets;

	@Option(names = "--plan",
			description = "Plan name in jmeter/plans (without .jmx) to run against every target; default: the target's own read plan.")
	String plan;

	@Option(names = "--target-host", defaultValue = "127.0.0.1",
			description = "Host of the default target URLs (default: ${DEFAULT-VALUE}).")
	String targetHost;

	@Option(names = "--gateway-url", description = "Gateway base URL (default http://<target-host>:8080).")
	String gatewayUrl;

	@Option(names = "--direct-url", description = "study-service base URL (default http://<target-host>:8081).")
	String directUrl;

	@Option(names = "--monolith-url", description = "Monolith base URL (default http://<target-host>:8082).")
	String monolithUrl;

	@Option(names = "--nginx-url",
			description = "nginx in front of study-service (e.g. http://127.0.0.1:8090); enables the nginx target.")
	String nginxUrl;

	@Option(names = "--results", description = "Results root (default: $LAB_HOME/results).")
	Path results;

	@Option(names = "--metrics-port", defaultValue = "9270",
			description = "Live Prometheus metrics port while a run is on; 0 disables (default: ${DEFAULT-VALUE}).")
	int metricsPort;

	@Option(names = "--metrics-host", paramLabel = "<address>", defaultValue = "127.0.0.1",
			description = "Address the live metrics port listens on (default: ${DEFAULT-VALUE}, this machine alone); an address of this machine, or 0.0.0.0 for all, to let a Prometheus elsewhere scrape it.")
	String metricsHost;

	@Option(names = "--start", negatable = true,
			description = "Start the local services the targets need (./lab up), after the options are checked, and stop what was started at the end (default: on when run by ./lab, i.e. LAB_SCRIPT is set; --no-start to measure what already runs).")
	Boolean start;

	@Option(names = "-J", description = "JMeter property key=value passed to the plans, as jmeter -J.")
	Map<String, String> jmeterProperties = new LinkedHashMap<>();

	/**
	 * Repository root: system property {@code lab.home} (tests), else env
	 * {@code LAB_HOME}, else the current dir.
	 */
	public static Path labHome() {
		String env = System.getProperty("lab.home", System.getenv("LAB_HOME"));
		return Path.of(env == null || env.isBlank() ? "." : env).toAbsolutePath().normalize();
	}

	public Path resultsRoot(Path labHome) {
		return results != null ? results.toAbsolutePath() : labHome.resolve("results");
	}

	public int metricsPort() {
		if (metricsPort < 0 || metricsPort > 65535) {
			throw new LabException("invalid --metrics-port " + metricsPort, "use 0..65535 (0 disables)");
		}
		return metricsPort;
	}

	/**
	 * The live metrics' address: an address of this machine, or the wildcard; else
	 * LabException.
	 */
	public String metricsHost() {
		try {
			InetAddress a = InetAddress.getByName(metricsHost);
			if (!a.isLoopbackAddress() && !a.isAnyLocalAddress() && NetworkInterface.getByInetAddress(a) == null) {
				throw new LabException("--metrics-host " + metricsHost + " is not an address of this machine",
						"pass one of its addresses (ip -brief address), or 0.0.0.0 for all");
			}
			return a.getHostAddress();
		}
		catch (UnknownHostException e) {
			throw new LabException("unknown --metrics-host " + metricsHost, "pass an IP address of this machine");
		}
		catch (SocketException e) {
			throw new LabException("cannot check --metrics-host " + metricsHost + ": " + e.getMessage(), null);
		}
	}

	/** The targets named by --targets, as given (null when none were). */
	public List<String> targetNames() {
		return targets == null ? null : targets.stream().map(String::trim).filter(t -> !t.isEmpty()).toList();
	}

	public Map<String, String> properties() {
		return JMeterProperties.validated(jmeterProperties);
	}

	/**
	 * Whether to start services: the explicit option, else on when run by the lab script.
	 */
	public boolean start() {
		return start != null ? start : LabScript.fromEnvironment() != null;
	}

	/** Whether --targets was given (soak defaults to the gateway alone). */
	public boolean targetsGiven() {
		return targets != null && !targets.isEmpty();
	}

	/**
	 * Targets with their URLs and plans; fails with exit code 2 on unknown names or a
	 * missing plan.
	 */
	public List<Target> resolveTargets(Catalog catalog, Path plansDir) {
		List<String> known = new ArrayList<>(catalog.targets().keySet());
		known.add(NGINX);
		List<String> names = targets == null || targets.isEmpty() ? new ArrayList<>(catalog.defaultTargets())
				: targets.stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
		if ((targets == null || targets.isEmpty()) && nginxUrl != null) {
			names.add(NGINX);
		}
		if (names.isEmpty()) {
			throw new LabException("no targets given", "use --targets " + String.join(",", catalog.targets().keySet()));
		}
		List<Target> out = new ArrayList<>();
		for (String name : names) {
			if (!known.contains(name)) {
				throw new LabException("unknown target '" + name + "'", "choose from " + String.join(",", known));
			}
			if (out.stream().anyMatch(t -> t.name().equals(name))) {
				throw new LabException("target '" + name + "' given twice", "list each target once in --targets");
			}
			out.add(name.equals(NGINX) ? nginx(plansDir) : target(catalog, catalog.targets().get(name), plansDir));
		}
		return out;
	}

	/**
	 * The target of this kind (gateway, direct, monolith) — an experiment's base —
	 * honouring the URL options.
	 */
	public Target ofKind(Catalog catalog, String kind, Path plansDir) {
		return target(catalog, catalog.targets().get(kind), plansDir);
	}

	private Target target(Catalog catalog, Catalog.TargetKind kind, Path plansDir) {
		Catalog.Service service = catalog.service(kind.service());
		String url = switch (kind.name()) {
			case "gateway" -> gatewayUrl;
			case "direct" -> directUrl;
			case "monolith" -> monolithUrl;
			default -> null;
		};
		URI base = parseUrl(kind.name(), url != null ? url : "http://" + targetHost + ":" + service.port());
		URI management = URI.create(base.getScheme() + "://" + base.getHost() + ":" + service.managementPort());
		return new Target(kind.name(), requirePlan(plansDir, plan != null ? plan : kind.plan()), base, service.name(),
				management);
	}

	private Target nginx(Path plansDir) {
		if (nginxUrl == null) {
			throw new LabException("target nginx needs --nginx-url", "pass --nginx-url http://127.0.0.1:8090");
		}
		return new Target(NGINX, requirePlan(plansDir, plan != null ? plan : "direct"), parseUrl(NGINX, nginxUrl),
				NGINX, null);
	}

	public static URI parseUrl(String name, String url) {
		try {
			URI u = URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
			if (u.getHost() == null || !("http".equals(u.getScheme()) || "https".equals(u.getScheme()))) {
				throw new IllegalArgumentException("needs http(s)://host:port");
			}
			return u;
		}
		catch (IllegalArgumentException e) {
			throw new LabException("invalid URL for " + name + ": '" + url + "'", "use e.g. http://127.0.0.1:8080");
		}
	}

	public static String requirePlan(Path plansDir, String planName) {
		if (!planName.matches("[A-Za-z0-9_-]+")) {
			throw new LabException("invalid plan name '" + planName + "'",
					"use a file name from " + plansDir + " without .jmx");
		}
		if (!Files.isRegularFile(plansDir.resolve(planName + ".jmx"))) {
			String known;
			try (Stream<Path> s = Files.list(plansDir)) {
				known = s.map(p -> p.getFileName().toString())
					.filter(n -> n.endsWith(".jmx"))
					.map(n -> n.substring(0, n.length() - 4))
					.sorted()
					.collect(Collectors.joining(","));
			}
			catch (Exception e) {
				known = "";
			}
			throw new LabException("unknown plan '" + planName + "' (no " + plansDir.resolve(planName + ".jmx") + ")",
					known.isEmpty() ? "set LAB_HOME to the repository root (plans live in jmeter/plans)"
							: "choose from " + known);
		}
		return planName;
	}

	public static String joinTargets(List<Target> targets) {
		return Arrays.toString(targets.stream().map(Target::name).toArray());
	}

}
