package dev.gatewaylab.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One final HTTP answer as a server sent it: status, header fields (names compared
 * ignoring case), and the body after its transfer coding is undone — all as ISO-8859-1
 * text.
 *
 * @param interim the interim answers ({@code 100 Continue}, {@code 103 Early Hints}, …)
 * that came before it, by status
 * @param version the protocol of the status line ({@code HTTP/1.1})
 * @param status the status code
 * @param reason the reason phrase (empty when the server sends none)
 * @param headers every header field by name, values in the order they came
 * @param body the body, chunked encoding decoded
 * @param complete whether the head and the body arrived as their framing announced (false
 * when the answer was cut short or its chunked encoding is malformed)
 */
public record RawResponse(List<Integer> interim, String version, int status, String reason,
		Map<String, List<String>> headers, String body, boolean complete) {

	public RawResponse {
		interim = List.copyOf(interim);
		Map<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		headers.forEach((name, values) -> copy.put(name, List.copyOf(values)));
		headers = Collections.unmodifiableMap(copy);
	}

	/**
	 * The final answer in what {@link RawHttp#exchange} or {@link RawHttp#readAll()}
	 * returned, after any interim ones.
	 * @throws IllegalArgumentException when the text does not start with an HTTP answer
	 * (the server closed without one, or answered as HTTP/0.9)
	 */
	public static RawResponse parse(String exchanged) {
		return tryParse(exchanged).orElseThrow(
				() -> new IllegalArgumentException("no HTTP answer in \"" + RawHttp.printable(exchanged, 300) + "\""));
	}

	/**
	 * The final answer in what {@link RawHttp#exchange} returned, or empty when the text
	 * holds none.
	 */
	public static Optional<RawResponse> tryParse(String exchanged) {
		try {
			return Optional.ofNullable(ResponseReader.read(new ResponseReader.TextSource(exchanged)));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex); // text sources do not fail
		}
	}

	/**
	 * The final status code in what {@link RawHttp#exchange} returned, or
	 * {@code "closed"} when no answer came before the connection ended.
	 */
	public static String outcome(String exchanged) {
		return tryParse(exchanged).map((response) -> Integer.toString(response.status())).orElse("closed");
	}

	/** The first value of the header field, or null. */
	public String header(String name) {
		List<String> values = this.headers.get(name);
		return (values != null) ? values.get(0) : null;
	}

	/** Every value of the header field, in order (empty when absent). */
	public List<String> headerValues(String name) {
		return this.headers.getOrDefault(name, List.of());
	}

	/** The {@code Content-Type}, or an empty string. */
	public String contentType() {
		String type = header("Content-Type");
		return (type != null) ? type : "";
	}

	/** Whether the body is {@code application/problem+json} (RFC 9457). */
	public boolean isProblemJson() {
		return contentType().toLowerCase().startsWith("application/problem+json");
	}

}
