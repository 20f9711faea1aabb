package dev.gatewaylab.runner.experiment;

import dev.gatewaylab.runner.run.LabScript;
import dev.gatewaylab.runner.run.Target;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Puts an experiment's service into a variant: {@code lab down <service>}, then
 * {@code lab up <service> <in front...>} with the variant's environment added to the
 * runner's own ({@code lab up} returns once they report ready). The services in front are
 * those a target's path goes through ({@link #inFront}); {@code lab up} leaves them as
 * they run and starts any that stopped — a gateway that ran out of heap under one
 * variant's overload exits ({@code -XX:+ExitOnOutOfMemoryError}) and meets the next
 * variant started afresh instead of refusing it. Restores the plain service at the end.
 */
public final class Restarts {

	private final LabScript lab;

	private final String service;

	private final List<String> inFront;

	private Map<String, String> current;

	private int currentRep;

	public Restarts(LabScript lab, String service, List<String> inFront) {
		this.lab = lab;
		this.service = service;
		this.inFront = List.copyOf(inFront);
	}

	/**
	 * The services an experiment's targets go through other than its own, once each.
	 * @param service the experiment's service
	 * @param targets the targets it measures
	 * @return the services in front of it
	 */
	public static List<String> inFront(String service, List<Target> targets) {
		Set<String> services = new LinkedHashSet<>();
		for (Target t : targets) {
			if (t.service() != null && !t.service().equals(service)) {
				services.add(t.service());
			}
		}
		return List.copyOf(services);
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
		List<String> up = new ArrayList<>();
		up.add(service);
		up.addAll(inFront);
		lab.run(env, "up", up);
	}

}
