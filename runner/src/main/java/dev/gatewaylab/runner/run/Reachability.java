package dev.gatewaylab.runner.run;

import dev.gatewaylab.runner.cli.LabException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Quick GET /api/studies/1 per distinct target URL with a deadline; any HTTP answer
 * counts as reachable.
 */
public final class Reachability {

	private Reachability() {
	}

	public static void check(List<Target> targets, Duration deadline) {
		HttpClient client = HttpClient.newBuilder().connectTimeout(deadline).build();
		Set<URI> seen = new HashSet<>();
		for (Target t : targets) {
			if (!seen.add(t.url())) {
				continue;
			}
			URI probe = URI.create(t.url() + "/api/studies/1");
			try {
				client.send(HttpRequest.newBuilder(probe).timeout(deadline).GET().build(),
						HttpResponse.BodyHandlers.discarding());
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				throw new LabException("interrupted while checking " + probe, null);
			}
			catch (Exception e) {
				throw new LabException(
						"target " + t.name() + " is unreachable: GET " + probe + " failed ("
								+ (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")",
						t.local() ? "start it with ./lab up, or run with --start"
								: "start it on that host or pass " + "the right --" + t.name() + "-url");
			}
		}
	}

}
