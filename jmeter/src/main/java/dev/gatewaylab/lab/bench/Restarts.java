package dev.gatewaylab.lab.bench;

import dev.gatewaylab.lab.run.LabScript;
import dev.gatewaylab.lab.run.Target;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Puts an experiment's service into a variant: {@code lab down <service>}, then {@code lab up <service>} with the
 * variant's environment added to the runner's own ({@code lab up} returns once the service reports ready). Restores
 * the plain service at the end.
 */
final class Restarts {

    private final LabScript lab;
    private final String service;
    private Map<String, String> current;

    Restarts(LabScript lab, String service) {
        this.lab = lab;
        this.service = service;
    }

    /**
     * Restarts the service in {@code t}'s variant — also when it already runs in it (the alternating order measures
     * the same variant twice in a row at a repetition boundary): every measurement gets a cold JVM of its own, so
     * repetitions stay independent.
     */
    void switchTo(Target t) throws IOException, InterruptedException {
        if (t.restartEnv() == null) {
            return;
        }
        restart(t.restartEnv());
        current = t.restartEnv();
    }

    void restoreDefault() {
        if (current == null) {
            return;
        }
        try {
            restart(Map.of());
        } catch (IOException | RuntimeException e) {
            System.err.println("warning: could not restart " + service + " with its defaults: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void restart(Map<String, String> env) throws IOException, InterruptedException {
        lab.run(env, "down", List.of(service));
        lab.run(env, "up", List.of(service));
    }
}
