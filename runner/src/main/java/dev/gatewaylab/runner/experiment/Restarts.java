package dev.gatewaylab.runner.experiment;

import dev.gatewaylab.runner.run.LabScript;
import dev.gatewaylab.runner.run.Target;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Puts an experiment's service into a variant: {@code lab down <service>}, then
 * {@code lab up <service>} with the variant's environment added to the runner's own
 * ({@code lab up} returns once the service reports ready). Restores the plain service at
 * the end.
 */
public final class Restarts {

	private final LabScript lab;

	private final String service;

	private Map<String, String> current;

	private int currentRep;

	public Restarts(LabScript lab, String service) {
		this.lab = lab;
		this.service = service;
	}

	/**
	 * Puts the service into {@code t}'s variant for repetition {@code rep}: restarts it
	 * unless it already runs in that variant in this repetition. A new repetition always
	 * gets a cold JVM — also when the alternating order measures the same variant twice
	 * in a row at a repetition boundary — so repetitions stay independent; targets
	 * sharing a variant within one repetition (virtual-threads: direct and gateway) share
	 * its JVM.
	 */
	public void switchTo(Target t, int rep) throws IOException, InterruptedException {
		if (t.restartEnv() == null || (t.restartEnv().equals(current) && rep == currentRep)) {
			return;
		}
		restart(t.restartEnv());
		current = t.restartEnv();
		currentRep = rep;
	}

	public void restoreDefault() {
		if (current == null) {
			return;
		}
		try {
			restart(Map.of());
		}
		catch (IOException | RuntimeException e) {
			System.err.println("warning: could not restart " + service + " with its defaults: " + e.getMessage());
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	private void restart(Map<String, String> env) throws IOException, InterruptedException {
		lab.run(env, "down", List.of(service));
		lab.run(env, "up", List.of(service));
	}

}
