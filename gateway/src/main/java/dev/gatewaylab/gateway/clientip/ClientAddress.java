package dev.gatewaylab.gateway.clientip;

import dev.gatewaylab.denylist.Ipv4;

/**
 * Who a request comes from, as {@link ClientIpResolver} resolved it once for the request:
 * every feature that judges clients (the deny list, the per-address login limit) reads
 * this one result.
 *
 * @param kind what the client's address is
 * @param high the first 64 bits of an IPv6 client; 0 otherwise
 * @param low the IPv4 client; the last 64 bits of an IPv6 client; for
 * {@link Kind#UNREADABLE}, the last hop that was verified (the trusted proxy that passed
 * the unreadable entry on), or {@link Ipv4#INVALID} when there is none
 */
public record ClientAddress(Kind kind, long high, long low) {

	public enum Kind {

		/** An IPv4 client, also one written as an IPv4-mapped IPv6 address. */
		IPV4,

		/** An IPv6 client. */
		IPV6,

		/**
		 * A forwarded address that cannot be read, or a request without a socket address.
		 */
		UNREADABLE

	}

	/** A request whose socket address is unknown. */
	static final ClientAddress UNKNOWN = new ClientAddress(Kind.UNREADABLE, 0, Ipv4.INVALID);

	public static ClientAddress ipv4(long ip) {
		return new ClientAddress(Kind.IPV4, 0, ip);
	}

	public static ClientAddress ipv6(Ipv6Address address) {
		long mapped = address.ipv4Mapped();
		return (mapped != Ipv4.INVALID) ? ipv4(mapped) : new ClientAddress(Kind.IPV6, address.high(), address.low());
	}

	/**
	 * A forwarded address that cannot be read, passed on by the trusted hop {@code hop}.
	 */
	static ClientAddress unreadable(long hop) {
		return new ClientAddress(Kind.UNREADABLE, 0, hop);
	}

	/**
	 * The IPv4 address the deny list judges: the client's; for a forwarded address that
	 * cannot be read, the trusted proxy that passed it on (a trusted proxy writes what it
	 * saw, so an unreadable entry was not written by a hop we trust);
	 * {@link Ipv4#INVALID} for an IPv6 client (the list is IPv4-only) or an unknown peer.
	 */
	public long ipv4() {
		return (this.kind == Kind.IPV6) ? Ipv4.INVALID : this.low;
	}

	/**
	 * The key of a per-client budget: the IPv4 address, an IPv6 client's /64, or the one
	 * key of every client whose forwarded address cannot be read — never the proxy's own,
	 * so such a client cannot use up the budget of everyone behind the proxy.
	 */
	public ClientKey key() {
		return switch (this.kind) {
			case IPV4 -> ClientKey.ipv4(this.low);
			case IPV6 -> ClientKey.ipv6(this.high);
			case UNREADABLE -> ClientKey.UNREADABLE;
		};
	}

}
