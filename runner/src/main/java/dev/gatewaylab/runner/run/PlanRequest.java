package dev.gatewaylab.runner.run;

import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The request a plan sends, as the latency generator and the pre-flight check send it: a
 * method, a path in which {@code {id}} stands for a whole number drawn uniformly from
 * [idMin, idMax] per request (as the JMeter plans' {@code __Random(idMin,idMax)}), and
 * the status a correct answer has. Declared per plan in lab.properties
 * ({@code plan.<name>.request=GET /api/studies/{id}}).
 */
public record PlanRequest(String method, String path, int idMin, int idMax, int expectStatus) {

	public PlanRequest {
		if (!method.matches("GET|HEAD")) {
			throw new LabException("plan request method " + method + " is not supported by the latency generator",
					"declare a GET or HEAD request in lab.properties (plan.<name>.request=GET /path)");
		}
		if (!path.startsWith("/")) {
			throw new LabException("plan request path '" + path + "' must start with /",
					"e.g. plan.gateway.request=GET /api/studies/{id}");
		}
		if (idMin > idMax) {
			throw new LabException("plan request ids [" + idMin + ", " + idMax + "] are empty", "use -J idMin ≤ idMax");
		}
	}

	/**
	 * Parses {@code "GET /api/studies/{id}"}; ids from {@code idMin}/{@code idMax}.
	 */
	public static PlanRequest parse(String line, int idMin, int idMax, int expectStatus) {
		String[] parts = line.trim().split("\\s+", 2);
		if (parts.length != 2) {
			throw new LabException("invalid plan request '" + line + "'",
					"write it as METHOD PATH, e.g. GET /api/studies/{id}");
		}
		return new PlanRequest(parts[0].toUpperCase(Locale.ROOT), parts[1], idMin, idMax, expectStatus);
	}

	/** The path with a fresh id. */
	public String nextPath() {
		return pathFor(ThreadLocalRandom.current().nextInt(idMin, idMax + 1));
	}

	public String pathFor(int id) {
		return path.replace("{id}", Integer.toString(id));
	}

	/**
	 * The same request with other bounds for {@code {id}} (the plans' -J idMin/idMax).
	 */
	public PlanRequest withIds(int min, int max) {
		return new PlanRequest(method, path, min, max, expectStatus);
	}

	@Override
	public String toString() {
		return method + " " + path;
	}

}
