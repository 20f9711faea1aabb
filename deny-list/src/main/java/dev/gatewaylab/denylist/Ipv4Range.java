package dev.gatewaylab.denylist;

/**
 * An inclusive range of IPv4 addresses ({@code first..last}, unsigned values in longs),
 * usually written as a CIDR.
 */
public record Ipv4Range(long first, long last) {

	public Ipv4Range {
		if (first < 0 || last > 0xFFFFFFFFL || first > last) {
			throw new IllegalArgumentException("not an IPv4 range: " + first + ".." + last);
		}
	}

	/**
	 * {@code a.b.c.d/len} (0..32, host bits zero) or a bare {@code a.b.c.d} (=
	 * {@code /32}).
	 * @throws IllegalArgumentException saying what is wrong with the text
	 */
	public static Ipv4Range parseCidr(String text) {
		String value = text.strip();
		int slash = value.indexOf('/');
		String address = (slash < 0) ? value : value.substring(0, slash);
		if (address.indexOf(':') >= 0) {
			throw new IllegalArgumentException("'" + text + "' is IPv6: only IPv4 is supported");
		}
		long ip = Ipv4.parse(address);
		if (ip == Ipv4.INVALID) {
			throw new IllegalArgumentException(
					"'" + text + "' is not an IPv4 address or CIDR (a.b.c.d or a.b.c.d/len)");
		}
		int length = 32;
		if (slash >= 0) {
			String digits = value.substring(slash + 1);
			if (!digits.matches("[0-9]{1,2}") || Integer.parseInt(digits) > 32) {
				throw new IllegalArgumentException("'" + text + "' has a bad prefix length: use /0 to /32");
			}
			length = Integer.parseInt(digits);
		}
		long size = 1L << (32 - length);
		if ((ip & (size - 1)) != 0) {
			throw new IllegalArgumentException("'" + text + "' has host bits set: did you mean "
					+ Ipv4.format(ip & ~(size - 1)) + "/" + length + "?");
		}
		return new Ipv4Range(ip, ip + size - 1);
	}

	public boolean contains(long ip) {
		return ip >= this.first && ip <= this.last;
	}

	@Override
	public String toString() {
		return Ipv4.format(this.first) + "-" + Ipv4.format(this.last);
	}

}
