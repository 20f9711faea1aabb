package dev.gatewaylab.lab.bench;

import dev.gatewaylab.lab.run.LabException;
import dev.gatewaylab.lab.run.LabScript;
import dev.gatewaylab.lab.run.Reachability;
import dev.gatewaylab.lab.run.Target;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Logging experiment: restarts the gateway in a logging mode through the lab script
 * ({@code lab down gateway}, then {@code GATEWAY_LOGGING_MODE=.. GATEWAY_LOGGING_BACKEND=.. lab up gateway}).
 */
final class LoggingExperiment {

    /** Experiment targets: label → (mode, backend). */
    static final Map<String, String[]> MODES = new LinkedHashMap<>();

    static {
        MODES.put("off", new String[] {"off", "log4j2"});
        MODES.put("logback", new String[] {"async", "logback"});
        MODES.put("log4j2-sync", new String[] {"sync", "log4j2"});
        MODES.put("log4j2-async", new String[] {"async", "log4j2"});
    }

    private final LabScript lab;
    private final Target gateway;
    private String current;

    LoggingExperiment(LabScript lab, Target gateway) {
        this.lab = lab;
        this.gateway = gateway;
    }

    /** One target per mode, all pointing at the gateway. */
    static List<Target> targets(Target gateway) {
        return MODES.entrySet().stream().map(e -> new Target(e.getKey(), gateway.plan(), gateway.url(),
                gateway.service(), gateway.managementUrl(), e.getValue()[0], e.getValue()[1])).toList();
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
        Map<String, String> env = new HashMap<>();
        env.put("GATEWAY_LOGGING_MODE", mode);
        env.put("GATEWAY_LOGGING_BACKEND", backend);
        lab.run(env, "down", List.of("gateway"));
        lab.run(env, "up", List.of("gateway"));
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (true) {
            try {
                Reachability.check(List.of(gateway), Duration.ofSeconds(2));
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
}
