package dev.gatewaylab.gateway.clientip;

import dev.gatewaylab.gateway.feature.Feature;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import org.springframework.http.server.reactive.ServerHttpRequest;

import dev.gatewaylab.denylist.Ipv4;
import dev.gatewaylab.denylist.Ipv4Range;

/**
 * The client address of a request, as an unsigned IPv4 value ({@link Ipv4#INVALID} when
 * there is none).
 * <p>
 * It is the socket peer, unless the peer is a trusted proxy: then it is the right-most
 * {@code X-Forwarded-For} entry (all header lines, in order, comma-separated) that is not
 * itself a trusted proxy — what nginx's {@code set_real_ip_from} +
 * {@code real_ip_recursive on} does. A header sent by an untrusted peer is never read.
 * <p>
 * Malformed entries ({@code unknown}, {@code 1.2.3}, {@code 300.1.1.1},
 * {@code 1.2.3.4:80}, host names, IPv6, empty, or more than {@link #MAX_HOPS} entries
 * walked): a trusted proxy appends the address it saw, which is always valid, so a
 * malformed entry was not written by a hop we trust. The walk stops there and the client
 * is the last hop that was verified: the trusted proxy to the right of the bad entry (the
 * socket peer if the right-most entry is bad). Nothing here resolves a name: addresses
 * are parsed by {@link Ipv4}, never by {@code InetAddress}.
 */
public final class ClientIpResolver implements Feature {

	public static final String X_FORWARDED_FOR = "X-Forwarded-For";

	/** Entries examined at most (bounds the work a 10,000-comma header can cause). */
	public static final int MAX_HOPS = 16;

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

	public long resolve(ServerHttpRequest request) {
		long peer = Ipv4.of(request.getRemoteAddress());
		if (peer == Ipv4.INVALID || !isTrustedProxy(peer)) {
			return peer; // the header is not even read
		}
		return resolve(peer, request.getHeaders().get(X_FORWARDED_FOR));
	}

	/**
	 * @param forwardedFor the {@code X-Forwarded-For} header lines in the order received
	 * (null = none)
	 */
	public long resolve(long peer, List<String> forwardedFor) {
		if (peer == Ipv4.INVALID || !isTrustedProxy(peer) || forwardedFor == null) {
			return peer;
		}
		long client = peer; // the nearest hop verified so far
		int hops = 0;
		ForwardedForEntries entries = new ForwardedForEntries(forwardedFor);
		while (entries.next()) {
			long ip = (++hops > MAX_HOPS) ? Ipv4.INVALID : Ipv4.parse(entries.text(), entries.from(), entries.to());
			if (ip == Ipv4.INVALID) {
				return client;
			}
			if (!isTrustedProxy(ip)) {
				return ip;
			}
			client = ip;
		}
		return client; // every entry was a trusted proxy: the left-most one
	}

	/**
	 * The key of a per-client budget (the login limit): the same walk as
	 * {@link #resolve(ServerHttpRequest)}, but an IPv6 entry is a client (keyed by its
	 * /64: a trusted proxy is IPv4) and an entry that cannot be read is
	 * {@link ClientKey#UNREADABLE}, never the proxy's own key: a client behind the proxy
	 * must not use up the budget of everyone else behind it. An IPv6 socket peer is keyed
	 * by its /64.
	 */
	public ClientKey clientKey(ServerHttpRequest request) {
		InetSocketAddress remote = request.getRemoteAddress();
		InetAddress address = (remote != null) ? remote.getAddress() : null;
		long peer = Ipv4.of(address);
		if (peer == Ipv4.INVALID) {
			Ipv6Address ipv6 = Ipv6Address.of(address);
			return (ipv6 != null) ? ClientKey.ipv6(ipv6) : ClientKey.UNREADABLE;
		}
		return clientKey(peer, isTrustedProxy(peer) ? request.getHeaders().get(X_FORWARDED_FOR) : null);
	}

	/**
	 * @param forwardedFor the {@code X-Forwarded-For} header lines in the order received
	 * (null = none, or not to be read)
	 */
	public ClientKey clientKey(long peer, List<String> forwardedFor) {
		if (forwardedFor == null || !isTrustedProxy(peer)) {
			return ClientKey.ipv4(peer);
		}
		long client = peer;
		int hops = 0;
		ForwardedForEntries entries = new ForwardedForEntries(forwardedFor);
		while (entries.next()) {
			String text = entries.text();
			long ip = Ipv4.parse(text, entries.from(), entries.to());
			if (ip == Ipv4.INVALID) {
				Ipv6Address ipv6 = Ipv6Address.parse(text, entries.from(), entries.to());
				ip = (ipv6 != null) ? ipv6.ipv4Mapped() : Ipv4.INVALID;
				if (ipv6 != null && ip == Ipv4.INVALID) {
					return ClientKey.ipv6(ipv6);
				}
			}
			if (ip == Ipv4.INVALID || ++hops > MAX_HOPS) {
				return ClientKey.UNREADABLE;
			}
			if (!isTrustedProxy(ip)) {
				return ClientKey.ipv4(ip);
			}
			client = ip;
		}
		// Every entry was a trusted proxy: the left-most one.
		return ClientKey.ipv4(client);
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
