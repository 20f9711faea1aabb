package dev.gatewaylab.runner.process;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What an app says of itself on its management port's {@code /actuator/info}.
 */
public final class ServiceInfo {

	private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private static final ObjectMapper JSON = new ObjectMapper();

	private ServiceInfo() {
	}

	/**
	 * The {@code features} each of {@code services} lists, by service; a service missing
	 * when it has no management port here or its page cannot be read.
	 */
	public static Map<String, List<String>> features(Map<String, URI> managementPorts, List<String> services) {
		Map<String, List<String>> out = new LinkedHashMap<>();
		for (String service : services) {
			URI management = managementPorts.get(service);
			List<String> features = (management != null) ? features(management) : null;
			if (features != null) {
				out.put(service, features);
			}
		}
		return out;
	}

	/**
	 * The {@code features} it lists (none listed: empty), or null when the page cannot be
	 * read.
	 */
	public static List<String> features(URI management) {
		try {
			HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create(management + "/actuator/info"))
				.timeout(Duration.ofSeconds(2))
				.GET()
				.build(), HttpResponse.BodyHandlers.ofString());
			return (r.statusCode() == 200) ? features(r.body()) : null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
		catch (Exception ex) {
			return null;
		}
	}

	static List<String> features(String info) throws java.io.IOException {
		List<String> out = new ArrayList<>();
		JsonNode features = JSON.readTree(info).path("features");
		features.forEach((feature) -> out.add(feature.asText()));
		return out;
	}

}
