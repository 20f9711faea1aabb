package dev.gatewaylab.runner.experiment;

import dev.gatewaylab.runner.run.LabException;
import java.util.List;
import java.util.Map;

/**
 * The paths an experiment measures, chosen with {@code --targets}: an experiment that
 * restarts an upstream may put any path to it in front (the virtual-threads experiment
 * through both gateways); one that restarts what it measures may not.
 */
public final class Through {

	/** Per experiment, the target kinds {@code --targets} may choose. */
	static final Map<String, List<String>> CHOOSABLE = Map.of("virtual-threads",
			List.of("direct", "gateway", "gateway-mvc", "floor"));

	private Through() {
	}

	/**
	 * The experiment measured through {@code chosen} instead of its own kinds (null or
	 * empty: its own); a usage error when it cannot be.
	 */
	public static Experiment of(Experiment e, List<String> chosen) {
		if (chosen == null || chosen.isEmpty()) {
			return e;
		}
		List<String> allowed = CHOOSABLE.get(e.name());
		if (allowed == null) {
			throw new LabException(
					"--experiment " + e.name() + " measures " + String.join(",", e.kinds())
							+ " only: --targets chooses the paths of --experiment virtual-threads",
					"drop --targets" + (e.kinds().contains("gateway")
							? " (the MVC gateway's levers: --experiment tuning-mvc)" : ""));
		}
		for (String kind : chosen) {
			if (!allowed.contains(kind)) {
				throw new LabException("--experiment " + e.name() + " cannot measure '" + kind + "'",
						"use --targets with some of: " + String.join(",", allowed));
			}
		}
		return new Experiment(e.name(), e.summary(), e.service(), List.copyOf(chosen), e.plan(), e.openRate(),
				e.tolerance(), e.variants(), e.toggle());
	}

}
