package dev.gatewaylab.gateway.clientip;

import dev.gatewaylab.denylist.Ipv4;

/**
 * The one reading of a forwarded address (an {@code X-Forwarded-For} entry), for every
 * feature that judges clients. Accepted, as proxies write them: an IPv4 address
 * ({@code 203.0.113.7}), an IPv6 address ({@code 2001:db8::7}), an IPv4-mapped IPv6
 * address ({@code ::ffff:203.0.113.7}, which is the IPv4 address), each with a port as
 * some proxies append it ({@code 203.0.113.7:51234}, {@code [2001:db8::7]:51234},
 * {@code [::ffff:203.0.113.7]:51234}) or in brackets alone ({@code [2001:db8::7]}).
 * Anything else is unreadable: a name, {@code unknown}, a zone ({@code fe80::1%eth0}), a
 * prefix length, a bad port, {@code 1.2.3}, leading zeros. Parsed by hand ({@link Ipv4},
 * {@link Ipv6Address}): never a DNS lookup.
 * <p>
 * Cost: a plain IPv4 entry is read exactly as before, by {@link Ipv4#parse} alone, with
 * no allocation; the other forms are tried only when that fails.
 */
final class ForwardedAddress {

	/** Not an address. */
	static final long UNREADABLE = Ipv4.INVALID;

	/**
	 * An IPv6 address that is not IPv4-mapped: {@link #ipv6(CharSequence, int, int)}
	 * reads it.
	 */
	static final long IPV6 = -2;

	private static final int MAX_PORT = 65535;

	private ForwardedAddress() {
	}

	/**
	 * Reads {@code text[from, to)} (no trimming).
	 * @return the IPv4 address (of the IPv4 forms and the IPv4-mapped IPv6 ones),
	 * {@link #IPV6}, or {@link #UNREADABLE}
	 */
	static long parse(CharSequence text, int from, int to) {
		long ip = Ipv4.parse(text, from, to);
		if (ip != Ipv4.INVALID || to - from < 2) {
			return ip;
		}
		long span = ipv6Span(text, from, to);
		if (span >= 0) {
			Ipv6Address ipv6 = Ipv6Address.parse(text, (int) (span >>> 32), (int) span);
			if (ipv6 == null) {
				return UNREADABLE;
			}
			long mapped = ipv6.ipv4Mapped();
			return (mapped != Ipv4.INVALID) ? mapped : IPV6;
		}
		int colon = indexOf(text, ':', from, to);
		return (colon >= 0 && isPort(text, colon + 1, to)) ? Ipv4.parse(text, from, colon) : UNREADABLE;
	}

	/**
	 * The IPv6 address of an entry {@link #parse} read as {@link #IPV6} (or as an
	 * IPv4-mapped one); null for any other entry.
	 */
	static Ipv6Address ipv6(CharSequence text, int from, int to) {
		long span = ipv6Span(text, from, to);
		return (span >= 0) ? Ipv6Address.parse(text, (int) (span >>> 32), (int) span) : null;
	}

	/**
	 * Where an IPv6 address stands in an entry, as {@code start << 32 | end}: the entry
	 * when it holds two colons or more and no bracket ({@code 2001:db8::7}), what is
	 * inside the brackets of {@code [v6]} or {@code [v6]:port}; -1 for any other entry
	 * (no colon, one colon: {@code ip:port}).
	 */
	private static long ipv6Span(CharSequence text, int from, int to) {
		if (text.charAt(from) == '[') {
			int close = indexOf(text, ']', from + 1, to);
			if (close < 0 || (close + 1 < to && (text.charAt(close + 1) != ':' || !isPort(text, close + 2, to)))) {
				return -1;
			}
			return ((long) (from + 1) << 32) | close;
		}
		int colon = indexOf(text, ':', from, to);
		if (colon < 0 || indexOf(text, ':', colon + 1, to) < 0) {
			return -1;
		}
		return ((long) from << 32) | to;
	}

	/** One to five digits, at most 65535. */
	private static boolean isPort(CharSequence text, int from, int to) {
		if (to <= from || to - from > 5) {
			return false;
		}
		int port = 0;
		for (int i = from; i < to; i++) {
			char c = text.charAt(i);
			if (c < '0' || c > '9') {
				return false;
			}
			port = port * 10 + (c - '0');
		}
		return port <= MAX_PORT;
	}

	private static int indexOf(CharSequence text, char c, int from, int to) {
		for (int i = from; i < to; i++) {
			if (text.charAt(i) == c) {
				return i;
			}
		}
		return -1;
	}

}
