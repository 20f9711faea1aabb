package dev.gatewaylab.runner.experiment;

import dev.gatewaylab.runner.run.LabException;
import dev.gatewaylab.runner.run.Target;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A switch of the service that the runner flips at run time, through its management port:
 * each variant of an experiment with a toggle is measured against itself with the switch
 * off, in the same JVM ({@link Switchback}) — target {@code <variant>} (as started) and
 * {@code <variant>-<offSuffix>}. {@code managementPath} takes {@code onBody} /
 * {@code offBody} as a JSON POST.
 */
public record Toggle(String offSuffix, String what, String managementPath, String onBody, String offBody) {

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	/**
	 * Turns the switch: on = the variant as started, off = the off arm. Fails clearly
	 * when refused.
	 */
	void set(Target t, boolean on) {
		URI uri = t.managementUrl().resolve(managementPath);
		HttpRequest request = HttpRequest.newBuilder(uri)
			.timeout(Duration.ofSeconds(5))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(on ? onBody : offBody))
			.build();
		try {
			HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() / 100 != 2) {
				throw new LabException(
						t.service() + " refused the switch (" + what + "): POST " + uri + " → " + response.statusCode(),
						"the experiment starts " + t.service() + " with the loggers endpoint "
								+ "exposed on its management port; a " + t.service() + " started by hand needs "
								+ "MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE=health,info,prometheus,loggers");
			}
		}
		catch (IOException e) {
			throw new LabException("could not reach " + uri + " to switch " + what + ": " + e.getMessage(),
					"is " + t.service() + " up with its management port on " + t.managementUrl() + "?");
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new LabException("interrupted while switching " + what, null);
		}
	}
}
