package dev.gatewaylab.lab.bench;

import dev.gatewaylab.lab.run.LabException;
import dev.gatewaylab.lab.run.LabScript;
import dev.gatewaylab.lab.run.Reachability;
import dev.gatewaylab.lab.run.Target;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Puts an experiment's service into a variant: {@code lab down <service>}, then {@code lab up <service>} with the
 * variant's environment added to the runner's own, and waits until it answers again. Restores the plain service at
 * the end.
 */
final class Restarts {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    private final LabScript lab;
    private final Target service;
    private String current;

    Restarts(LabScript lab, Target service) {
        this.lab = lab;
        this.service = service;
    }

    /** Restarts the service in {@code t}'s variant unless it already runs in it. */
    void switchTo(Target t) throws IOException, InterruptedException {
        if (t.restartEnv() == null || t.name().equals(current)) {
            return;
        }
        restart(t.restartEnv(), t.name());
        current = t.name();
    }

    void restoreDefault() {
        if (current == null) {
            return;
        }
        try {
            restart(Map.of(), "its defaults");
        } catch (IOException | RuntimeException e) {
            System.err.println("warning: could not restart " + service.service() + " with its defaults: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void restart(Map<String, String> env, String variant) throws IOException, InterruptedException {
        List<String> services = List.of(service.service());
        lab.run(env, "down", services);
        lab.run(env, "up", services);
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (true) {
            try {
                Reachability.check(List.of(service), Duration.ofSeconds(2));
                return;
            } catch (LabException e) {
                if (System.nanoTime() > deadline) {
                    throw new LabException(service.service() + " did not come back within " + READY_TIMEOUT.toSeconds()
                            + " s after the restart for " + variant + " " + env,
                            "see .lab/logs/" + service.service() + ".log");
                }
                Thread.sleep(500); // polling interval while waiting for a restart, bounded by the deadline
            }
        }
    }
}
