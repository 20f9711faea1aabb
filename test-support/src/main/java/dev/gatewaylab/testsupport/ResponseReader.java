package dev.gatewaylab.testsupport;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads HTTP/1.x answers off a {@link Source}: status lines, header fields (folded lines
 * joined), and the body as its framing says — chunked (decoded), {@code Content-Length},
 * or up to the close. Lenient: what a server sends cut short or malformed is returned as
 * far as it goes, marked incomplete.
 */
final class ResponseReader {

	private static final Pattern STATUS_LINE = Pattern.compile("(HTTP/\\d(?:\\.\\d)?) (\\d{3})(?: (.*))?");

	private ResponseReader() {
	}

	/** Where the bytes of an answer come from. */
	interface Source {

		/**
		 * The next line with its line ending, or what is left without one; null at the
		 * end.
		 */
		String readLine() throws IOException;

		/** Up to {@code count} characters (fewer at the end). */
		String read(long count) throws IOException;

		/** Everything left. */
		String readToEnd() throws IOException;

		/**
		 * Whether the end of the source was the server's close (not a timeout or a
		 * reset).
		 */
		boolean endedCleanly();

	}

	/**
	 * The final answer and the interim ({@code 1xx} but {@code 101}) ones before it, or
	 * null when no status line comes first.
	 */
	static RawResponse read(Source source) throws IOException {
		List<Integer> interim = new ArrayList<>();
		while (true) {
			String line = source.readLine();
			Matcher status = (line != null) ? STATUS_LINE.matcher(withoutEol(line)) : null;
			if (status == null || !status.matches()) {
				return null;
			}
			int code = Integer.parseInt(status.group(2));
			String reason = (status.group(3) != null) ? status.group(3) : "";
			Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
			boolean headComplete = readFields(source, headers);
			if (!headComplete) {
				return new RawResponse(interim, status.group(1), code, reason, headers, "", false);
			}
			if (code >= 100 && code < 200 && code != 101) {
				interim.add(code);
				continue;
			}
			StringBuilder body = new StringBuilder();
			boolean complete = readBody(source, code, headers, body);
			return new RawResponse(interim, status.group(1), code, reason, headers, body.toString(), complete);
		}
	}

	/**
	 * Header (or trailer) fields up to the empty line; false when the source ends first.
	 */
	private static boolean readFields(Source source, Map<String, List<String>> fields) throws IOException {
		String last = null;
		for (String line; (line = source.readLine()) != null;) {
			String field = withoutEol(line);
			if (field.isEmpty()) {
				return line.endsWith("\n");
			}
			if ((field.charAt(0) == ' ' || field.charAt(0) == '\t') && last != null) {
				List<String> values = fields.get(last);
				values.set(values.size() - 1, values.get(values.size() - 1) + " " + field.strip());
				continue;
			}
			int colon = field.indexOf(':');
			last = (colon < 0) ? field : field.substring(0, colon);
			String value = (colon < 0) ? "" : field.substring(colon + 1).strip();
			fields.computeIfAbsent(last, (name) -> new ArrayList<>()).add(value);
		}
		return false;
	}

	private static boolean readBody(Source source, int status, Map<String, List<String>> headers, StringBuilder body)
			throws IOException {
		if (status == 101 || status == 204 || status == 304) {
			return true;
		}
		List<String> codings = headers.getOrDefault("Transfer-Encoding", List.of());
		if (!codings.isEmpty() && lastToken(codings.get(codings.size() - 1)).equalsIgnoreCase("chunked")) {
			return readChunks(source, body);
		}
		List<String> length = headers.getOrDefault("Content-Length", List.of());
		if (!length.isEmpty() && length.get(0).matches("\\d{1,18}")) {
			long expected = Long.parseLong(length.get(0));
			body.append(source.read(expected));
			return body.length() == expected;
		}
		body.append(source.readToEnd());
		return source.endedCleanly();
	}

	private static boolean readChunks(Source source, StringBuilder body) throws IOException {
		while (true) {
			String line = source.readLine();
			if (line == null) {
				return false;
			}
			String size = withoutEol(line);
			size = ((size.indexOf(';') >= 0) ? size.substring(0, size.indexOf(';')) : size).strip();
			if (!size.matches("[0-9a-fA-F]{1,15}")) {
				return false;
			}
			long count = Long.parseLong(size, 16);
			if (count == 0) {
				return readFields(source, new LinkedHashMap<>());
			}
			String data = source.read(count);
			body.append(data);
			String end = source.readLine();
			if (data.length() < count || end == null || !withoutEol(end).isEmpty()) {
				return false;
			}
		}
	}

	private static String lastToken(String list) {
		return list.substring(list.lastIndexOf(',') + 1).strip();
	}

	private static String withoutEol(String line) {
		int end = line.length();
		if (end > 0 && line.charAt(end - 1) == '\n') {
			end--;
		}
		if (end > 0 && line.charAt(end - 1) == '\r') {
			end--;
		}
		return line.substring(0, end);
	}

	/** Text captured from a connection, as {@link RawHttp#readAll()} returns it. */
	static final class TextSource implements Source {

		private final String text;

		private final boolean endedCleanly;

		private int position;

		TextSource(String captured) {
			String end = captured.endsWith(RawHttp.READ_TIMEOUT) ? RawHttp.READ_TIMEOUT
					: captured.endsWith(RawHttp.RESET) ? RawHttp.RESET : "";
			this.text = captured.substring(0, captured.length() - end.length());
			this.endedCleanly = end.isEmpty();
		}

		@Override
		public String readLine() {
			if (this.position >= this.text.length()) {
				return null;
			}
			int newline = this.text.indexOf('\n', this.position);
			int end = (newline < 0) ? this.text.length() : newline + 1;
			String line = this.text.substring(this.position, end);
			this.position = end;
			return line;
		}

		@Override
		public String read(long count) {
			int end = (int) Math.min(this.text.length(), this.position + count);
			String data = this.text.substring(this.position, end);
			this.position = end;
			return data;
		}

		@Override
		public String readToEnd() {
			return read(this.text.length());
		}

		@Override
		public boolean endedCleanly() {
			return this.endedCleanly;
		}

	}

}
