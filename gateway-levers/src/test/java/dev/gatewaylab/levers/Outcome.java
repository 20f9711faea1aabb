package dev.gatewaylab.levers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.gatewaylab.testsupport.RawResponse;

/**
 * Everything one {@link Case} did through one gateway, in a form two gateways can be
 * compared on: the client's answer (status, header fields but {@code Date}, body), what
 * the upstream received (every request, its header lines, every body), and the exchange's
 * attributes when it completed. Header lines of different names may come in any order
 * (RFC 9110 §5.3: their order carries no meaning), lines of one name in the order sent, a
 * name in any case. The gateway's own port, which differs between two gateways, reads
 * {@code PORT}; the parts of an error body that differ per request (its time and request
 * id, and with them its length) are left out.
 *
 * @param status the status the client got
 * @param headers the client's header fields, by name
 * @param body the client's body
 * @param complete whether the client's answer arrived whole
 * @param upstream the requests the upstream received
 * @param attributes the exchange attributes ({@link LeverTestApplication.Recorder})
 */
record Outcome(int status, Map<String, List<String>> headers, String body, boolean complete, List<String> upstream,
		Map<String, String> attributes) {

	static Outcome of(Case request, TestGateway gateway, TestUpstream upstream) {
		upstream.reset();
		gateway.recorder().byCase.remove(request.name());
		RawResponse response = request.send(gateway.port());
		Map<String, String> attributes = awaitRecorded(gateway, request.name());
		String port = Integer.toString(gateway.port());
		boolean errorBody = response.body().contains("\"requestId\":");
		Map<String, List<String>> headers = new TreeMap<>();
		response.headers().forEach((name, values) -> {
			if (!name.equalsIgnoreCase("Date") && !(errorBody && name.equalsIgnoreCase("Content-Length"))) {
				headers.put(name.toLowerCase(java.util.Locale.ROOT),
						values.stream().map((v) -> ported(v, port)).toList());
			}
		});
		List<String> received = new ArrayList<>();
		upstream.received().forEach((text) -> received.add(ported(headerLinesByName(text), port)));
		Map<String, String> recorded = new TreeMap<>();
		attributes.forEach((key, value) -> recorded.put(key, ported(value, port)));
		// An echo's body is the upstream's view of the request: read it as that.
		String body = upstream.received().contains(response.body()) ? headerLinesByName(response.body())
				: errorBody(response.body());
		return new Outcome(response.status(), headers, ported(body, port), response.complete(), received, recorded);
	}

	private static Map<String, String> awaitRecorded(TestGateway gateway, String name) {
		long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
		Map<String, String> recorded;
		while ((recorded = gateway.recorder().byCase.get(name)) == null && System.nanoTime() < deadline) {
			java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
		}
		return (recorded != null) ? recorded : Map.of("(not recorded)", name);
	}

	/**
	 * A request as the upstream describes it, its header lines sorted by name (lower
	 * case), lines of one name kept in order.
	 */
	private static String headerLinesByName(String request) {
		int end = request.indexOf("\n\n");
		String[] lines = request.substring(0, end).split("\n");
		List<String> headers = new ArrayList<>();
		for (int i = 1; i < lines.length; i++) {
			int colon = lines[i].indexOf(':');
			headers.add(lines[i].substring(0, colon).toLowerCase(java.util.Locale.ROOT) + lines[i].substring(colon));
		}
		headers.sort(java.util.Comparator.comparing((String line) -> line.substring(0, line.indexOf(':'))));
		return lines[0] + "\n" + String.join("\n", headers) + request.substring(end);
	}

	private static String ported(String text, String port) {
		return text.replace(":" + port, ":PORT").replace("=" + port, "=PORT").replace(" " + port, " PORT");
	}

	/** An error body of the framework's error handler without its time and request id. */
	private static String errorBody(String body) {
		return body.replaceAll("\"timestamp\":\"[^\"]*\",?", "").replaceAll("\"requestId\":\"[^\"]*\",?", "");
	}

}
