package dev.gatewaylab.gateway.clientip;

import dev.gatewaylab.gateway.feature.Feature;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

import dev.gatewaylab.denylist.Ipv4;
import dev.gatewaylab.denylist.Ipv4Range;

/**
 * The client of a request ({@link ClientAddress}), resolved once per request and kept on
 * the exchange ({@link #client(ServerWebExchange)}): the deny list and the per-address
 * login limit judge the same result, and nobody parses the header twice.
 * <p>
 * It is the socket peer, unless the peer is a trusted proxy: then it is the right-most
 * {@code X-Forwarded-For} entry (all header lines, in order, comma-separated) that is not
 * itself a trusted proxy — what nginx's {@code set_real_ip_from} +
 * {@code real_ip_recursive on} does. A header sent by an untrusted peer is never read.
 * Each entry is read by {@link ForwardedAddress}: IPv4, IPv6, IPv4-mapped IPv6, each also
 * with a port ({@code ip:port}, {@code [v6]:port}). An IPv6 client is a client (trusted
 * proxies are IPv4 ranges, so the walk ends there).
 * <p>
 * An entry that cannot be read ({@code unknown}, {@code 1.2.3}, {@code 300.1.1.1}, a host
 * name, empty, or more than {@link #MAX_HOPS} entries walked): a trusted proxy appends
 * the address it saw, so such an entry was not written by a hop we trust. The walk stops
 * there: the client is {@link ClientAddress.Kind#UNREADABLE unreadable}, passed on by the
 * last hop that was verified (the trusted proxy to the right of the bad entry, the socket
 * peer if the right-most entry is bad). Nothing here resolves a name.
 */
public final class ClientIpResolver implements Feature {

	public static final String X_FORWARDED_FOR = "X-Forwarded-For";

	/** Entries examined at most (bounds the work a 10,000-comma header can cause). */
	public static final int MAX_HOPS = 16;

	/** The exchange attribute that holds a request's {@link ClientAddress}. */
	public static final String CLIENT_ATTRIBUTE = ClientIpResolver.class.getName() + ".client";

	private final long[] trustedFirst;

	private final long[] trustedLast;

	private final String trustedProxies;

	public ClientIpResolver(List<Ipv4Range> trustedProxies) {
		this.trustedFirst = trustedProxies.stream().mapToLong(Ipv4Range::first).toArray();
		this.trustedLast = trustedProxies.stream().mapToLong(Ipv4Range::last).toArray();
		this.trustedProxies = trustedProxies.toString();
	}

	/**
	 * From a comma- or whitespace-separated CIDR list such as
	 * {@code 127.0.0.0/8,10.1.2.0/24}; empty = trust nobody.
	 * @throws IllegalArgumentException naming the bad entry
	 */
	public static ClientIpResolver of(String trustedProxies) {
		List<Ipv4Range> ranges = new ArrayList<>();
		for (String item : trustedProxies.split("[,\\s]+")) {
			if (!item.isEmpty()) {
				try {
					ranges.add(Ipv4Range.parseCidr(item));
				}
				catch (IllegalArgumentException ex) {
					throw new IllegalArgumentException(
							"Bad trusted proxy (GATEWAY_TRUSTED_PROXIES): " + ex.getMessage(), ex);
				}
			}
		}
		return new ClientIpResolver(ranges);
	}

	/**
	 * The request's client: resolved by the first feature that asks, then kept on the
	 * exchange for the others (one attribute).
	 */
	public ClientAddress client(ServerWebExchange exchange) {
		if (exchange.getAttributes().get(CLIENT_ATTRIBUTE) instanceof ClientAddress known) {
			return known;
		}
		ClientAddress client = resolve(exchange.getRequest());
		exchange.getAttributes().put(CLIENT_ATTRIBUTE, client);
		return client;
	}

	/** Resolves a request's client (no caching: {@link #client(ServerWebExchange)}). */
	public ClientAddress resolve(ServerHttpRequest request) {
		InetSocketAddress remote = request.getRemoteAddress();
		InetAddress address = (remote != null) ? remote.getAddress() : null;
		long peer = Ipv4.of(address);
		if (peer == Ipv4.INVALID) {
			Ipv6Address ipv6 = Ipv6Address.of(address);
			if (ipv6 == null) {
				return ClientAddress.UNKNOWN;
			}
			peer = ipv6.ipv4Mapped();
			if (peer == Ipv4.INVALID) {
				// never a trusted proxy: the header is not read
				return ClientAddress.ipv6(ipv6);
			}
		}
		return resolve(peer, isTrustedProxy(peer) ? request.getHeaders().get(X_FORWARDED_FOR) : null);
	}

	/**
	 * @param peer the socket peer's IPv4 address
	 * @param forwardedFor the {@code X-Forwarded-For} header lines in the order received
	 * (null = none, or not to be read)
	 */
	public ClientAddress resolve(long peer, List<String> forwardedFor) {
		if (forwardedFor == null || !isTrustedProxy(peer)) {
			return ClientAddress.ipv4(peer);
		}
		long client = peer; // the nearest hop verified so far
		int hops = 0;
		ForwardedForEntries entries = new ForwardedForEntries(forwardedFor);
		while (entries.next()) {
			long ip = (++hops > MAX_HOPS) ? ForwardedAddress.UNREADABLE
					: ForwardedAddress.parse(entries.text(), entries.from(), entries.to());
			if (ip == ForwardedAddress.UNREADABLE) {
				return ClientAddress.unreadable(client);
			}
			if (ip == ForwardedAddress.IPV6) {
				return ClientAddress.ipv6(ForwardedAddress.ipv6(entries.text(), entries.from(), entries.to()));
			}
			if (!isTrustedProxy(ip)) {
				return ClientAddress.ipv4(ip);
			}
			client = ip;
		}
		// every entry was a trusted proxy: the left-most one
		return ClientAddress.ipv4(client);
	}

	/**
	 * Whether a socket peer is a trusted proxy (an IPv4-mapped IPv6 peer counts as its
	 * IPv4 address; any other IPv6 peer is not trusted).
	 */
	public boolean isTrustedPeer(InetSocketAddress remote) {
		InetAddress address = (remote != null) ? remote.getAddress() : null;
		long peer = Ipv4.of(address);
		if (peer == Ipv4.INVALID && address != null) {
			Ipv6Address ipv6 = Ipv6Address.of(address);
			peer = (ipv6 != null) ? ipv6.ipv4Mapped() : Ipv4.INVALID;
		}
		return peer != Ipv4.INVALID && isTrustedProxy(peer);
	}

	public boolean isTrustedProxy(long ip) {
		for (int i = 0; i < this.trustedFirst.length; i++) {
			if (ip >= this.trustedFirst[i] && ip <= this.trustedLast[i]) {
				return true;
			}
		}
		return false;
	}

	@Override
	public String toString() {
		return "ClientIpResolver(trusted proxies " + this.trustedProxies + ")";
	}

	@Override
	public String feature() {
		return "client address from X-Forwarded-For of trusted proxies only";
	}

}
