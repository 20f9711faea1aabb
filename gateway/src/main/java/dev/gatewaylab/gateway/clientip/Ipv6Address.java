package dev.gatewaylab.gateway.clientip;

import java.net.Inet6Address;
import java.net.InetAddress;

import dev.gatewaylab.denylist.Ipv4;

/**
 * An IPv6 address as two 64-bit halves, parsed by hand from text so no header value can
 * ever trigger a DNS lookup (RFC 4291 §2.2): eight groups of one to four hex digits, one
 * {@code ::} for a run of zero groups, a dotted-quad IPv4 address as the last 32 bits.
 * Anything else is no address: a zone ({@code fe80::1%eth0}), brackets, a port, a prefix
 * length, five hex digits, a second {@code ::}.
 *
 * @param high the first 64 bits: the network prefix a client is usually given (/64)
 * @param low the last 64 bits
 */
public record Ipv6Address(long high, long low) {

	/** Parses {@code text[from, to)}, no trimming; null when it is no IPv6 address. */
	public static Ipv6Address parse(CharSequence text, int from, int to) {
		if (to - from < 2 || to - from > 45) {
			return null;
		}
		int[] groups = new int[8];
		int count = 0;
		int gap = -1; // where "::" stands, in groups
		int i = from;
		if (text.charAt(i) == ':') {
			if (text.charAt(i + 1) != ':') {
				return null;
			}
			gap = 0;
			i += 2;
		}
		while (i < to) {
			int start = i;
			int value = 0;
			while (i < to && i - start < 5 && hex(text.charAt(i)) >= 0) {
				value = (value << 4) | hex(text.charAt(i++));
			}
			if (i < to && text.charAt(i) == '.') { // the IPv4 tail
				long ipv4 = (count <= 6) ? Ipv4.parse(text, start, to) : Ipv4.INVALID;
				if (ipv4 == Ipv4.INVALID) {
					return null;
				}
				groups[count++] = (int) (ipv4 >>> 16);
				groups[count++] = (int) (ipv4 & 0xFFFF);
				break;
			}
			if (i == start || i - start > 4 || count == 8) {
				return null;
			}
			groups[count++] = value;
			if (i == to) {
				break;
			}
			if (text.charAt(i) != ':' || ++i == to) {
				return null;
			}
			if (text.charAt(i) == ':') {
				if (gap >= 0) {
					return null;
				}
				gap = count;
				i++;
			}
		}
		if ((gap < 0) ? count != 8 : count > 7) {
			return null;
		}
		long[] halves = new long[2];
		for (int g = 0; g < count; g++) {
			int position = (gap >= 0 && g >= gap) ? g + 8 - count : g;
			halves[position / 4] |= (long) groups[g] << (16 * (3 - position % 4));
		}
		return new Ipv6Address(halves[0], halves[1]);
	}

	public static Ipv6Address parse(CharSequence text) {
		return parse(text, 0, text.length());
	}

	/** A socket's IPv6 address (never resolves); null for anything else. */
	public static Ipv6Address of(InetAddress address) {
		if (!(address instanceof Inet6Address)) {
			return null;
		}
		byte[] b = address.getAddress();
		long high = 0;
		long low = 0;
		for (int i = 0; i < 8; i++) {
			high = (high << 8) | (b[i] & 0xFF);
			low = (low << 8) | (b[i + 8] & 0xFF);
		}
		return new Ipv6Address(high, low);
	}

	/**
	 * {@code ::ffff:a.b.c.d}, an IPv4 address in IPv6 form: its IPv4 value, else
	 * {@link Ipv4#INVALID}.
	 */
	public long ipv4Mapped() {
		return (this.high == 0 && (this.low >>> 32) == 0xFFFF) ? this.low & 0xFFFFFFFFL : Ipv4.INVALID;
	}

	/** The /64 network, such as {@code 2001:db8:0:1::/64}. */
	public static String formatPrefix64(long high) {
		return Long.toHexString(high >>> 48) + ":" + Long.toHexString((high >>> 32) & 0xFFFF) + ":"
				+ Long.toHexString((high >>> 16) & 0xFFFF) + ":" + Long.toHexString(high & 0xFFFF) + "::/64";
	}

	private static int hex(char c) {
		if (c >= '0' && c <= '9') {
			return c - '0';
		}
		if (c >= 'a' && c <= 'f') {
			return c - 'a' + 10;
		}
		return (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
	}

}
