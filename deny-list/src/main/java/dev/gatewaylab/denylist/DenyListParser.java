package dev.gatewaylab.denylist;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.zip.CRC32C;

/**
 * Reads a deny-list text file in one streaming pass: one IPv4 address or CIDR per line,
 * {@code #} comments (whole line or after a rule), blank lines, and the properties form
 * {@code key=value} where the side that is an address is the rule and the other side a
 * label ({@code deny.1=10.0.0.0/8} or {@code 10.0.0.0/8=deny}). See docs/deny-list.md.
 * <p>
 * Each rule goes to the sink as one packed {@code long} ({@link DenyList#pack}): no
 * {@code String} per line, no boxing, nothing kept. A bad line either fails the load
 * ({@link OnError#FAIL}, naming file, line and reason) or is skipped and counted
 * ({@link OnError#SKIP}). The CRC-32C and the size of the bytes read identify the version
 * of the file that was parsed.
 */
final class DenyListParser {

	private static final int BUFFER = 1 << 20;

	private static final int MAX_SAMPLES = DenyListFile.MAX_SAMPLES;

	// Why a rule is bad (0 = it is fine).
	private static final int NOT_IPV4 = 1;

	private static final int IPV6 = 2;

	private static final int BAD_PREFIX = 3;

	private static final int HOST_BITS = 4;

	private final Path file;

	private final OnError onError;

	private final LongConsumer sink;

	private final CRC32C crc = new CRC32C();

	/** The read buffer: lines are parsed in place. */
	private final byte[] buf = new byte[BUFFER];

	/** The read buffer as characters, for {@link Ipv4#parse(CharSequence, int, int)}. */
	private final AsciiChars chars = new AsciiChars(this.buf);

	private long bytes;

	private long rules;

	private long skippedLines;

	private final List<String> skipped = new ArrayList<>();

	// The rule parseRule found.
	private long first;

	private long last;

	DenyListParser(Path file, OnError onError, LongConsumer sink) {
		this.file = file;
		this.onError = onError;
		this.sink = sink;
	}

	long rules() {
		return this.rules;
	}

	long skippedLines() {
		return this.skippedLines;
	}

	List<String> skipped() {
		return this.skipped;
	}

	/** Bytes read. */
	long bytes() {
		return this.bytes;
	}

	/** CRC-32C of the bytes read. */
	int crc() {
		return (int) this.crc.getValue();
	}

	/**
	 * @throws DenyListException for a bad line (FAIL)
	 */
	void parse() throws IOException {
		byte[] buf = this.buf;
		int len = 0; // valid bytes in buf
		int pos = 0; // start of the current line
		int scan = 0; // where the search for '\n' resumes
		long lineNo = 0;
		boolean tooLong = false; // discarding the rest of a line longer than the buffer
		try (InputStream in = Files.newInputStream(this.file)) {
			while (true) {
				int n = in.read(buf, len, buf.length - len);
				if (n > 0) {
					this.crc.update(buf, len, n);
					this.bytes += n;
					len += n;
				}
				for (int i = scan; i < len; i++) {
					if (buf[i] == '\n') {
						lineNo++;
						if (tooLong) {
							bad(lineNo, "line longer than " + BUFFER + " bytes", buf, pos, pos);
							tooLong = false;
						}
						else {
							line(buf, pos, i, lineNo);
						}
						pos = i + 1;
					}
				}
				if (n < 0) {
					if (pos < len || tooLong) {
						lineNo++;
						if (tooLong) {
							bad(lineNo, "line longer than " + BUFFER + " bytes", buf, pos, pos);
						}
						else {
							line(buf, pos, len, lineNo);
						}
					}
					return;
				}
				if (pos == 0 && len == buf.length) {
					tooLong = true;
					len = 0;
				}
				else {
					System.arraycopy(buf, pos, buf, 0, len - pos);
					len -= pos;
					pos = 0;
				}
				scan = len;
			}
		}
	}

	private void line(byte[] b, int s, int e, long lineNo) {
		int eq = -1;
		for (int i = s; i < e; i++) {
			byte c = b[i];
			if (c == '#') {
				e = i;
				break;
			}
			if (c == '=' && eq < 0) {
				eq = i;
			}
		}
		while (s < e && isSpace(b[s])) {
			s++;
		}
		while (e > s && isSpace(b[e - 1])) {
			e--;
		}
		if (s == e || b[s] == '!') {
			return; // blank, or a properties-style "!" comment
		}
		if (eq < 0) {
			int why = parseRule(b, s, e);
			if (why == 0) {
				add();
			}
			else {
				bad(lineNo, reason(why), b, s, e);
			}
			return;
		}
		// key=value: the side that is an address is the rule, the other a label.
		int ks = s;
		int ke = eq;
		int vs = eq + 1;
		int ve = e;
		while (ke > ks && isSpace(b[ke - 1])) {
			ke--;
		}
		while (vs < ve && isSpace(b[vs])) {
			vs++;
		}
		int whyKey = parseRule(b, ks, ke);
		long keyFirst = this.first;
		long keyLast = this.last;
		int whyValue = parseRule(b, vs, ve);
		if (whyKey == 0 && whyValue == 0) {
			bad(lineNo, "both sides of '=' are addresses: one side must be the rule, the other a label", b, s, e);
		}
		else if (whyValue == 0) {
			add();
		}
		else if (whyKey == 0) {
			this.first = keyFirst;
			this.last = keyLast;
			add();
		}
		else {
			// Report the more telling reason: the side that at least
			// looks like an address.
			int why = (whyValue != NOT_IPV4) ? whyValue : whyKey;
			if (why == whyKey && whyValue == NOT_IPV4) {
				this.first = keyFirst;
				this.last = keyLast;
			}
			bad(lineNo, (why == NOT_IPV4) ? "no IPv4 address or CIDR on either side of '='" : reason(why), b, s, e);
		}
	}

	private void add() {
		this.rules++;
		this.sink.accept(DenyList.pack(this.first, this.last));
	}

	/**
	 * Parses {@code a.b.c.d} or {@code a.b.c.d/len} into first/last; returns 0 or why
	 * not.
	 */
	private int parseRule(byte[] b, int s, int e) {
		int slash = -1;
		for (int i = s; i < e; i++) {
			if (b[i] == '/') {
				slash = i;
				break;
			}
			if (b[i] == ':') {
				return IPV6;
			}
		}
		long ip = Ipv4.parse(this.chars, s, (slash < 0) ? e : slash);
		if (ip == Ipv4.INVALID) {
			return NOT_IPV4;
		}
		int length = 32;
		if (slash >= 0) {
			int digits = e - slash - 1;
			if (digits < 1 || digits > 2) {
				return BAD_PREFIX;
			}
			length = 0;
			for (int i = slash + 1; i < e; i++) {
				if (b[i] < '0' || b[i] > '9') {
					return BAD_PREFIX;
				}
				length = length * 10 + (b[i] - '0');
			}
			if (length > 32) {
				return BAD_PREFIX;
			}
		}
		long hostMask = (1L << (32 - length)) - 1;
		this.first = ip & ~hostMask & 0xFFFFFFFFL;
		this.last = this.first | hostMask;
		return ((ip & hostMask) != 0) ? HOST_BITS : 0;
	}

	private String reason(int why) {
		return switch (why) {
			case IPV6 -> "IPv6 rules are not supported (the deny list is IPv4-only)";
			case BAD_PREFIX -> "bad prefix length: use /0 to /32";
			case HOST_BITS -> "host bits set: did you mean " + Ipv4.format(this.first) + "/"
					+ (32 - Long.numberOfTrailingZeros(this.last - this.first + 1)) + "?";
			default -> "not an IPv4 address or CIDR (expected a.b.c.d or a.b.c.d/len)";
		};
	}

	private void bad(long lineNo, String reason, byte[] b, int s, int e) {
		String text = new String(b, s, Math.min(e - s, 80), StandardCharsets.ISO_8859_1).replaceAll("[^\\x20-\\x7E]",
				"?");
		String message = reason + ((e > s) ? ": '" + text + "'" : "");
		if (this.onError == OnError.FAIL) {
			throw DenyListException.badLine(this.file, lineNo, message);
		}
		this.skippedLines++;
		if (this.skipped.size() < MAX_SAMPLES) {
			this.skipped.add(DenyListException.location(this.file, lineNo) + ": " + message);
		}
	}

	private static boolean isSpace(byte c) {
		return c == ' ' || c == '\t' || c == '\r';
	}

}
