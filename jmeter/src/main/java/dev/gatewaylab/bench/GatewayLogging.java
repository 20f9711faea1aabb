package dev.gatewaylab.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Logging experiment: restarts the gateway in a logging mode through the lab script
 * ({@code $LAB_SCRIPT down gateway}, then {@code GATEWAY_LOGGING_MODE=.. GATEWAY_LOGGING_BACKEND=.. $LAB_SCRIPT up gateway}).
 */
final class GatewayLogging {

    /** Experiment targets: label → (mode, backend). */
    static final Map<String, String[]> MODES = new java.util.LinkedHashMap<>();

    static {
        MODES.put("off", new String[] {"off", "log4j2"});
        MODES.put("logback", new String[] {"async", "logback"});
        MODES.put("log4j2-sync", new String[] {"sync", "log4j2"});
        MODES.put("log4j2-async", new String[] {"async", "log4j2"});
    }

    private final Path script;
    private final Path log;
    private final URI gatewayUrl;
    private String current;

    GatewayLogging(Path script, Path log, URI gatewayUrl) {
        this.script = script;
        this.log = log;
        this.gatewayUrl = gatewayUrl;
    }

    static List<Target> targets(String plan, URI gatewayUrl) {
        return MODES.entrySet().stream()
                .map(e -> new Target(e.getKey(), plan, gatewayUrl, e.getValue()[0], e.getValue()[1]))
                .toList();
    }

    static Path requireScript() {
        String s = System.getenv("LAB_SCRIPT");
        if (s == null || s.isBlank() || !java.nio.file.Files.isExecutable(Path.of(s))) {
            throw new LabException("--experiment logging restarts the gateway through the lab script, but LAB_SCRIPT "
                    + "is " + (s == null || s.isBlank() ? "not set" : "not executable: " + s),
                    "run it as ./lab bench --experiment logging");
        }
        return Path.of(s);
    }

    void switchTo(Target t) throws IOException, InterruptedException {
        if (t.name().equals(current)) {
            return;
        }
        restart(t.loggingMode(), t.loggingBackend());
        current = t.name();
    }

    void restoreDefault() {
        try {
            restart(null, null);
        } catch (IOException | RuntimeException e) {
            System.err.println("warning: could not restore the gateway's default logging: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void restart(String mode, String backend) throws IOException, InterruptedException {
        exec(List.of(script.toString(), "down", "gateway"), null, null);
        exec(List.of(script.toString(), "up", "gateway"), mode, backend);
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        Target probe = new Target("gateway", "gateway", gatewayUrl);
        while (true) {
            try {
                TargetOptions.checkReachable(List.of(probe), Duration.ofSeconds(2));
                return;
            } catch (LabException e) {
                if (System.nanoTime() > deadline) {
                    throw new LabException("gateway did not come back within 120 s after the restart (mode "
                            + mode + ", backend " + backend + ")", "see .lab/logs/gateway.log");
                }
                Thread.sleep(500); // polling interval while waiting for a restart, bounded by the deadline
            }
        }
    }

    private void exec(List<String> cmd, String mode, String backend) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().remove("GATEWAY_LOGGING_MODE");
        pb.environment().remove("GATEWAY_LOGGING_BACKEND");
        if (mode != null) {
            pb.environment().put("GATEWAY_LOGGING_MODE", mode);
            pb.environment().put("GATEWAY_LOGGING_BACKEND", backend);
        }
        int rc = pb.start().waitFor();
        if (rc != 0) {
            throw new LabException(String.join(" ", cmd) + " failed with exit code " + rc, "see " + log);
        }
    }
}
