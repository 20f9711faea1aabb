package dev.gatewaylab.gateway.clientip;

import java.util.List;

/**
 * A walk over the entries of {@code X-Forwarded-For} header lines from right to left: the
 * last line first, and in each line the right-most entry first (the hop nearest to us),
 * each entry trimmed of spaces and tabs. An entry is a range of its line's text, read
 * without copying: {@link #text()}, {@link #from()} and {@link #to()}.
 */
final class ForwardedForEntries {

	private final List<String> lines;

	private int line;

	private String text;

	/** Exclusive end of the next entry in {@link #text}; -1 when the line is done. */
	private int end = -1;

	private int from;

	private int to;

	ForwardedForEntries(List<String> lines) {
		this.lines = lines;
		this.line = lines.size();
	}

	/**
	 * Moves to the next entry, one hop further from us.
	 * @return false when every entry of every line has been walked
	 */
	boolean next() {
		if (this.end < 0) {
			if (--this.line < 0) {
				return false;
			}
			this.text = this.lines.get(this.line);
			this.end = this.text.length();
		}
		int comma = this.text.lastIndexOf(',', this.end - 1);
		int start = comma + 1;
		int stop = this.end;
		while (start < stop && isSpace(this.text.charAt(start))) {
			start++;
		}
		while (stop > start && isSpace(this.text.charAt(stop - 1))) {
			stop--;
		}
		this.from = start;
		this.to = stop;
		this.end = comma;
		return true;
	}

	/** The header line the current entry is in. */
	String text() {
		return this.text;
	}

	/** Where the current entry starts in {@link #text()}. */
	int from() {
		return this.from;
	}

	/** Where the current entry ends (exclusive) in {@link #text()}. */
	int to() {
		return this.to;
	}

	private static boolean isSpace(char c) {
		return c == ' ' || c == '\t';
	}

}
