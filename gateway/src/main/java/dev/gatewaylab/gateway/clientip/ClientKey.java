package dev.gatewaylab.gateway.clientip;

import dev.gatewaylab.denylist.Ipv4;

/**
 * Who a request comes from, for a per-client budget such as the login limit: an IPv4
 * address, an IPv6 client's /64 network (one subscriber or host usually holds a whole
 * /64, so a bucket per address could be dodged by changing the last bits), or the one key
 * for every client whose forwarded address cannot be read — apart from the trusted
 * proxy's own, so such a client cannot use up the budget of everyone behind the proxy.
 *
 * @param kind what {@code value} is
 * @param value the IPv4 address, or the first 64 bits of the IPv6 address
 */
public record ClientKey(Kind kind, long value) {

	public enum Kind {

		IPV4, IPV6_64, UNREADABLE

	}

	public static final ClientKey UNREADABLE = new ClientKey(Kind.UNREADABLE, 0);

	public static ClientKey ipv4(long ip) {
		return new ClientKey(Kind.IPV4, ip);
	}

	/**
	 * An IPv6 client's /64 network.
	 * @param high the first 64 bits of its address
	 */
	public static ClientKey ipv6(long high) {
		return new ClientKey(Kind.IPV6_64, high);
	}

	/** For a message to the client. */
	public String describe() {
		return switch (this.kind) {
			case IPV4 -> Ipv4.format(this.value);
			case IPV6_64 -> Ipv6Address.formatPrefix64(this.value);
			case UNREADABLE -> "clients whose forwarded address cannot be read";
		};
	}

}
