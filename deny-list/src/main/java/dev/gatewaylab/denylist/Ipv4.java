package dev.gatewaylab.denylist;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * IPv4 addresses as unsigned 32-bit values held in a {@code long}
 * ({@code 0..0xFFFFFFFF}), parsed by hand from text so no header or file value can ever
 * trigger a DNS lookup. {@link #INVALID} ({@code -1}) means "not an IPv4 address".
 * <p>
 * Only the strict dotted-quad form is accepted: four decimal parts 0..255, no leading
 * zeros ({@code 010} is octal to some parsers and decimal to others), no whitespace,
 * port, brackets, scope or host name. {@code 1.2.3} (which {@code InetAddress} reads as
 * {@code 1.2.0.3}), {@code 300.1.1.1}, {@code 1.2.3.4:80}, {@code ::ffff:1.2.3.4},
 * {@code localhost} and {@code unknown} are all {@link #INVALID}.
 */
public final class Ipv4 {

	/** Returned for anything that is not a strict dotted-quad IPv4 address. */
	public static final long INVALID = -1;

	private Ipv4() {
	}

	public static long parse(CharSequence text) {
		return parse(text, 0, text.length());
	}

	/**
	 * Parses {@code text[from, to)}; no trimming: callers decide which whitespace is
	 * allowed. The one parser for both hot paths: a header value per request (a
	 * {@code String}), and the millions of lines of a deny list, which its parser reads
	 * in place through one view of its byte buffer (no copy per line).
	 */
	public static long parse(CharSequence text, int from, int to) {
		if (to - from < 7 || to - from > 15) {
			return INVALID;
		}
		long value = 0;
		int part = 0;
		int digits = 0;
		int parts = 0;
		for (int i = from; i < to; i++) {
			char c = text.charAt(i);
			if (c >= '0' && c <= '9') {
				if (digits > 0 && part == 0) {
					return INVALID; // leading zero
				}
				part = part * 10 + (c - '0');
				if (++digits > 3 || part > 255) {
					return INVALID;
				}
			}
			else if (c == '.' && digits > 0 && parts < 3) {
				value = (value << 8) | part;
				parts++;
				part = 0;
				digits = 0;
			}
			else {
				return INVALID;
			}
		}
		if (digits == 0 || parts != 3) {
			return INVALID;
		}
		return (value << 8) | part;
	}

	/**
	 * The IPv4 value of a socket address, or {@link #INVALID} when it is IPv6, unresolved
	 * or null. Never resolves.
	 */
	public static long of(InetSocketAddress address) {
		if (address == null) {
			return INVALID;
		}
		return of(address.getAddress());
	}

	public static long of(InetAddress address) {
		if (!(address instanceof Inet4Address)) {
			return INVALID;
		}
		byte[] b = address.getAddress();
		return ((b[0] & 0xFFL) << 24) | ((b[1] & 0xFF) << 16) | ((b[2] & 0xFF) << 8) | (b[3] & 0xFF);
	}

	public static String format(long ip) {
		if (ip < 0 || ip > 0xFFFFFFFFL) {
			return "-";
		}
		return ((ip >>> 24) & 0xFF) + "." + ((ip >>> 16) & 0xFF) + "." + ((ip >>> 8) & 0xFF) + "." + (ip & 0xFF);
	}

}
