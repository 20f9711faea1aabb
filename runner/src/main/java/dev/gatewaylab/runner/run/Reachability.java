package dev.gatewaylab.runner.run;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The check before warm-up that every target answers its plan's request (lab.properties
 * {@code plan.<name>.request}, the lowest id) with the expected status — or, for a plan
 * that declares none, answers {@code GET /} at all. A run that fails it exits 2 naming
 * the URL and how to start the target, before anything is measured. The probe carries
 * {@code X-Request-Id: }{@value #PROBE_ID}, so that an access log tells it from the run's
 * own requests.
 */
public final class Reachability {

	/** The {@code X-Request-Id} of every probe. */
	public static final String PROBE_ID = "lab-reachability-probe";

	private Reachability() {
	}

	/**
	 * How the run was started, for the fix a failure suggests: {@code started} = the
	 * runner started the services itself (--start), {@code remote} = remote engines.
	 */
	public record How(boolean started, boolean remote) {
	}

	public static void check(List<Target> targets, Catalog catalog, java.util.Map<String, String> planProperties,
			How how, Duration deadline) {
		HttpClient client = HttpClient.newBuilder().connectTimeout(deadline).build();
		Set<String> seen = new HashSet<>();
		for (Target t : targets) {
			PlanRequest request = catalog.request(t.plan(), planProperties);
			String path = request == null ? "/" : request.pathFor(request.idMin());
			URI probe = URI.create(t.url() + path);
			if (!seen.add(probe.toString())) {
				continue;
			}
			String what = request == null ? "GET " + probe : request.method() + " " + probe;
			int status;
			try {
				status = client
					.send(HttpRequest.newBuilder(probe)
						.timeout(deadline)
						.header("X-Request-Id", PROBE_ID)
						.method(request == null ? "GET" : request.method(), HttpRequest.BodyPublishers.noBody())
						.build(), HttpResponse.BodyHandlers.discarding())
					.statusCode();
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				throw new LabException("interrupted while checking " + probe, null);
			}
			catch (Exception e) {
				throw new LabException(
						"target " + t.name() + " does not answer its plan's request: " + what + " failed ("
								+ (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")",
						fix(t, how));
			}
			if (request != null && status != request.expectStatus()) {
				throw new LabException(
						"target " + t.name() + " answered " + what + " with " + status + ", not "
								+ request.expectStatus(),
						"check ./lab status and the logs under .lab/ (" + t.service()
								+ " and what it needs), then run again");
			}
		}
	}

	static String fix(Target t, How how) {
		if (!t.local()) {
			return "start it on that host or pass the right --" + t.name() + "-url";
		}
		if (how.remote()) {
			return "start it with ./lab up (with --remote the lab starts nothing), then run again";
		}
		return how.started() ? "it was started but does not answer: check ./lab status and the logs under .lab/"
				: "start it with ./lab up, or drop --no-start so that the run starts it";
	}

}
