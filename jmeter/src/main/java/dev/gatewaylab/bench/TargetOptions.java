package dev.gatewaylab.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine.Option;

/** Options shared by bench and sweep: which targets, where they are, plans, -J properties, results dir. */
public class TargetOptions {

    static final List<String> TARGETS = List.of("gateway", "direct", "monolith", "nginx");
    private static final Set<String> WHOLE_NUMBERS = Set.of("threads", "duration", "rampup", "port", "idMin", "idMax",
            "connectTimeout", "responseTimeout", "minMs", "maxMs", "userMin", "userMax", "fields", "expect");
    private static final Set<String> NOT_NUMBERS = Set.of("fields", "expect");

    @Option(names = "--targets", split = ",", description = "Targets: gateway,direct,monolith[,nginx] (default: gateway,direct,monolith; nginx is added when --nginx-url is given).")
    List<String> targets;

    @Option(names = "--plan", description = "Plan name in jmeter/plans (without .jmx) to run against every target; default: the target's own read plan.")
    String plan;

    @Option(names = "--target-host", defaultValue = "127.0.0.1", description = "Host of the default target URLs (default: ${DEFAULT-VALUE}).")
    String targetHost;

    @Option(names = "--gateway-url", description = "Gateway base URL (default http://<target-host>:8080).")
    String gatewayUrl;

    @Option(names = "--direct-url", description = "study-service base URL (default http://<target-host>:8081).")
    String directUrl;

    @Option(names = "--monolith-url", description = "Monolith base URL (default http://<target-host>:8082).")
    String monolithUrl;

    @Option(names = "--nginx-url", description = "nginx in front of study-service (e.g. http://127.0.0.1:8090); enables the nginx target.")
    String nginxUrl;

    @Option(names = "--results", description = "Results root (default: $LAB_HOME/results).")
    Path results;

    @Option(names = "--metrics-port", defaultValue = "9270", description = "Live Prometheus metrics port while a run is on; 0 disables (default: ${DEFAULT-VALUE}).")
    int metricsPort;

    @Option(names = "--remote", split = ",", description = "Remote jmeter-server hosts (host[:port]), as jmeter -R: each must run jmeter-server 5.6.3; properties are sent as with -G; the JTL aggregates all engines.")
    List<String> remote;

    @Option(names = "-J", description = "JMeter property key=value passed to the plans, as jmeter -J.")
    Map<String, String> jmeterProperties = new LinkedHashMap<>();

    /** Repository root: system property {@code lab.home} (tests), else env {@code LAB_HOME}, else the current dir. */
    static Path labHome() {
        String env = System.getProperty("lab.home", System.getenv("LAB_HOME"));
        return Path.of(env == null || env.isBlank() ? "." : env).toAbsolutePath().normalize();
    }

    Path resultsRoot(Path labHome) {
        return results != null ? results.toAbsolutePath() : labHome.resolve("results");
    }

    /** Validates -J values: whole numbers where the plans expect them, rate a non-negative number. */
    static Map<String, String> validatedProperties(Map<String, String> props) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : props.entrySet()) {
            String key = e.getKey().trim();
            String value = e.getValue() == null ? "" : e.getValue().trim();
            if (key.isEmpty()) {
                throw new LabException("invalid -J property: empty name", "write -J key=value, e.g. -J threads=8");
            }
            if (WHOLE_NUMBERS.contains(key) && !NOT_NUMBERS.contains(key)) {
                long v;
                try {
                    v = Long.parseLong(value);
                } catch (NumberFormatException ex) {
                    throw new LabException("invalid -J " + key + "=" + value + ": not a whole number",
                            "use e.g. -J " + key + "=" + example(key));
                }
                long min = Set.of("threads", "duration", "port", "idMin", "idMax").contains(key) ? 1 : 0;
                if (v < min) {
                    throw new LabException("invalid -J " + key + "=" + value + ": must be ≥ " + min,
                            "use e.g. -J " + key + "=" + example(key));
                }
            }
            if (key.equals("rate")) {
                double r;
                try {
                    r = Double.parseDouble(value);
                } catch (NumberFormatException ex) {
                    throw new LabException("invalid -J rate=" + value + ": not a number", "use e.g. -J rate=200 (req/s, 0 = closed model)");
                }
                if (r < 0 || Double.isNaN(r) || Double.isInfinite(r)) {
                    throw new LabException("invalid -J rate=" + value + ": must be ≥ 0", "use e.g. -J rate=200 (req/s, 0 = closed model)");
                }
            }
            out.put(key, value);
        }
        return out;
    }

    private static String example(String key) {
        return switch (key) {
            case "threads" -> "8";
            case "duration" -> "30";
            case "port" -> "8080";
            case "idMax" -> "10000";
            case "connectTimeout" -> "2000";
            case "responseTimeout" -> "10000";
            default -> "1";
        };
    }

    /** Targets with their URLs and plans; fails with exit code 2 on unknown names or a missing plan. */
    List<Target> resolveTargets(Path plansDir) {
        List<String> names = targets == null || targets.isEmpty()
                ? new ArrayList<>(nginxUrl == null ? List.of("gateway", "direct", "monolith")
                        : List.of("gateway", "direct", "monolith", "nginx"))
                : targets.stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
        if (names.isEmpty()) {
            throw new LabException("no targets given", "use --targets " + String.join(",", TARGETS.subList(0, 3)));
        }
        List<Target> out = new ArrayList<>();
        for (String name : names) {
            if (!TARGETS.contains(name)) {
                throw new LabException("unknown target '" + name + "'", "choose from " + String.join(",", TARGETS));
            }
            if (out.stream().anyMatch(t -> t.name().equals(name))) {
                throw new LabException("target '" + name + "' given twice", "list each target once in --targets");
            }
            String url = switch (name) {
                case "gateway" -> orDefault(gatewayUrl, 8080);
                case "direct" -> orDefault(directUrl, 8081);
                case "monolith" -> orDefault(monolithUrl, 8082);
                default -> {
                    if (nginxUrl == null) {
                        throw new LabException("target nginx needs --nginx-url", "pass --nginx-url http://127.0.0.1:8090");
                    }
                    yield nginxUrl;
                }
            };
            String planName = plan != null ? plan : switch (name) {
                case "gateway" -> "gateway";
                case "monolith" -> "monolith";
                default -> "direct";
            };
            out.add(new Target(name, requirePlan(plansDir, planName), parseUrl(name, url)));
        }
        return out;
    }

    private String orDefault(String url, int port) {
        return url != null ? url : "http://" + targetHost + ":" + port;
    }

    static URI parseUrl(String name, String url) {
        try {
            URI u = URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
            if (u.getHost() == null || !("http".equals(u.getScheme()) || "https".equals(u.getScheme()))) {
                throw new IllegalArgumentException("needs http(s)://host:port");
            }
            return u;
        } catch (IllegalArgumentException e) {
            throw new LabException("invalid URL for " + name + ": '" + url + "'", "use e.g. http://127.0.0.1:8080");
        }
    }

    static String requirePlan(Path plansDir, String planName) {
        if (!planName.matches("[A-Za-z0-9_-]+")) {
            throw new LabException("invalid plan name '" + planName + "'", "use a file name from " + plansDir + " without .jmx");
        }
        if (!Files.isRegularFile(plansDir.resolve(planName + ".jmx"))) {
            String known;
            try (Stream<Path> s = Files.list(plansDir)) {
                known = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jmx"))
                        .map(n -> n.substring(0, n.length() - 4)).sorted().collect(Collectors.joining(","));
            } catch (Exception e) {
                known = "";
            }
            throw new LabException("unknown plan '" + planName + "' (no " + plansDir.resolve(planName + ".jmx") + ")",
                    known.isEmpty() ? "set LAB_HOME to the repository root (plans live in jmeter/plans)"
                            : "choose from " + known);
        }
        return planName;
    }

    List<String> remoteHosts() {
        if (remote == null) {
            return List.of();
        }
        List<String> hosts = remote.stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
        for (String h : hosts) {
            if (!h.matches("[A-Za-z0-9.\\-\\[\\]:]+")) {
                throw new LabException("invalid --remote host '" + h + "'", "use host or host:port, comma-separated");
            }
        }
        return hosts;
    }

    /** Quick GET /api/studies/1 per distinct URL with a deadline; any HTTP answer counts as reachable. */
    static void checkReachable(List<Target> targets, Duration deadline) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(deadline).build();
        Set<URI> seen = new java.util.HashSet<>();
        for (Target t : targets) {
            if (!seen.add(t.url())) {
                continue;
            }
            URI probe = URI.create(t.url() + "/api/studies/1");
            try {
                client.send(HttpRequest.newBuilder(probe).timeout(deadline).GET().build(),
                        HttpResponse.BodyHandlers.discarding());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LabException("interrupted while checking " + probe, null);
            } catch (Exception e) {
                throw new LabException("target " + t.name() + " is unreachable: GET " + probe + " failed ("
                        + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")",
                        "start it with ./lab up" + (t.local() ? "" : " on that host") + " or pass the right --"
                                + (t.name().equals("direct") ? "direct" : t.name()) + "-url");
            }
        }
    }

    static String joinTargets(List<Target> targets) {
        return Arrays.toString(targets.stream().map(Target::name).toArray());
    }
}
