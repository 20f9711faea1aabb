package dev.gatewaylab.gateway.clientip;

import java.net.InetSocketAddress;
import java.security.Permission;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import dev.gatewaylab.denylist.Ipv4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assumptions.assumeThat;

class ClientIpResolverTests {

	static final long LOOPBACK_PEER = Ipv4.parse("127.0.0.1");

	static final long UNTRUSTED_PEER = Ipv4.parse("203.0.113.9");

	final ClientIpResolver resolver = ClientIpResolver.of("127.0.0.0/8, 10.0.0.0/8");

	long resolve(long peer, String... lines) {
		return this.resolver.resolve(peer, (lines.length == 0) ? null : Arrays.asList(lines)).ipv4();
	}

	@Test
	void untrustedPeerIsTheClientWhateverItsHeaderSays() {
		assertThat(resolve(UNTRUSTED_PEER, "6.6.6.6")).isEqualTo(UNTRUSTED_PEER);
		assertThat(resolve(UNTRUSTED_PEER, "6.6.6.6, 7.7.7.7", "8.8.8.8")).isEqualTo(UNTRUSTED_PEER);
		assertThat(resolve(UNTRUSTED_PEER)).isEqualTo(UNTRUSTED_PEER);
	}

	@Test
	void trustedPeerWithoutHeaderIsTheClient() {
		assertThat(resolve(LOOPBACK_PEER)).isEqualTo(LOOPBACK_PEER);
		assertThat(this.resolver.resolve(LOOPBACK_PEER, List.of()).ipv4()).isEqualTo(LOOPBACK_PEER);
	}

	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource(delimiter = '|', value = {
			// right-most entry that is not a trusted proxy
			"6.6.6.6                          | 6.6.6.6", "1.1.1.1, 6.6.6.6                 | 6.6.6.6",
			"1.1.1.1, 6.6.6.6, 10.0.0.5       | 6.6.6.6", "1.1.1.1,6.6.6.6,10.0.0.5,127.0.0.2 | 6.6.6.6",
			"'  6.6.6.6\t'                    | 6.6.6.6",
			// every entry trusted: the left-most one
			"10.0.0.7, 10.0.0.5               | 10.0.0.7",
			// malformed: the trusted hop to its right (the peer if it is right-most)
			"unknown                          | 127.0.0.1", "1.2.3                            | 127.0.0.1",
			"300.1.1.1                        | 127.0.0.1", "localhost                        | 127.0.0.1",
			"example.com                      | 127.0.0.1", "''                               | 127.0.0.1",
			"'   '                            | 127.0.0.1", "'6.6.6.6,'                       | 127.0.0.1",
			"'6.6.6.6, '                      | 127.0.0.1", "6.6.6.6, unknown, 10.0.0.5       | 10.0.0.5",
			"6.6.6.6, 001.002.003.004         | 127.0.0.1",
			// a malformed entry left of the client is never reached
			"unknown, 6.6.6.6                 | 6.6.6.6", "'6.6.6.6 7.7.7.7'                | 127.0.0.1" })
	void trustedPeerHeaderCases(String header, String expected) {
		assertThat(Ipv4.format(resolve(LOOPBACK_PEER, header))).isEqualTo(expected);
	}

	/**
	 * What some proxies write: a port after the address, an IPv4 address in IPv6 form.
	 * Each of these was judged as the proxy itself, so a denied client written this way
	 * was let through. ("-": an IPv6 client, which the IPv4 deny list cannot name.)
	 */
	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource(delimiter = '|',
			value = { "6.6.6.6:51234                    | 6.6.6.6", "::ffff:6.6.6.6                   | 6.6.6.6",
					"::FFFF:6.6.6.6                   | 6.6.6.6", "[::ffff:6.6.6.6]:443             | 6.6.6.6",
					"[::ffff:6.6.6.6]                 | 6.6.6.6", "::ffff:10.0.0.5, 10.0.0.6:80     | 10.0.0.5",
					"6.6.6.6:1, ::ffff:10.0.0.5:9     | 127.0.0.1", "7.7.7.7, ::ffff:10.0.0.5, 10.0.0.6:8080 | 7.7.7.7",
					"2001:db8::1                      | -", "[2001:db8::1]:80                 | -",
					"6.6.6.6, 2001:db8::1, 10.0.0.5  | -",
					// still unreadable: the trusted hop to its right
					"6.6.6.6:                         | 127.0.0.1", "6.6.6.6:65536                    | 127.0.0.1",
					"6.6.6.6:80x                      | 127.0.0.1", "6.6.6.6:123456                   | 127.0.0.1",
					"[6.6.6.6]:80                     | 127.0.0.1", "6.6.6.6:80:90                    | 127.0.0.1",
					"localhost:80                     | 127.0.0.1", "[2001:db8::1]x                   | 127.0.0.1",
					"[2001:db8::1                     | 127.0.0.1", "[2001:db8::1]:                  | 127.0.0.1",
					"fe80::1%eth0                     | 127.0.0.1", "::ffff:300.1.1.1                 | 127.0.0.1",
					"001.002.003.004:80               | 127.0.0.1", "':80'                            | 127.0.0.1",
					"6.6.6.6, 7.7.7.7:x, 10.0.0.5     | 10.0.0.5" })
	void forwardedAddressForms(String header, String expected) {
		assertThat(Ipv4.format(resolve(LOOPBACK_PEER, header))).isEqualTo(expected);
	}

	@Test
	void allHeaderLinesCountRightMostLineFirst() {
		assertThat(Ipv4.format(resolve(LOOPBACK_PEER, "6.6.6.6", "7.7.7.7, 10.0.0.1"))).isEqualTo("7.7.7.7");
		assertThat(Ipv4.format(resolve(LOOPBACK_PEER, "6.6.6.6", "10.0.0.1", "127.0.0.5"))).isEqualTo("6.6.6.6");
		assertThat(Ipv4.format(resolve(LOOPBACK_PEER, "6.6.6.6", ""))).isEqualTo("127.0.0.1");
	}

	@Test
	void aHugeHeaderIsBoundedAndFallsBackToTheLastVerifiedHop() {
		assertThat(Ipv4.format(resolve(LOOPBACK_PEER, ",".repeat(10_000)))).isEqualTo("127.0.0.1");
		assertThat(Ipv4.format(resolve(LOOPBACK_PEER, "6.6.6.6" + ",".repeat(10_000)))).isEqualTo("127.0.0.1");
		String proxies = "6.6.6.6, " + "10.0.0.9, ".repeat(10_000) + "10.0.0.1";
		assertThat(Ipv4.format(resolve(LOOPBACK_PEER, proxies))).isEqualTo("10.0.0.9");
		String fewProxies = "6.6.6.6, " + "10.0.0.9, ".repeat(ClientIpResolver.MAX_HOPS - 2) + "10.0.0.1";
		assertThat(Ipv4.format(resolve(LOOPBACK_PEER, fewProxies))).isEqualTo("6.6.6.6");
	}

	@Test
	void readsThePeerAndHeaderOfARequest() {
		MockServerHttpRequest viaProxy = MockServerHttpRequest.get("/")
			.remoteAddress(new InetSocketAddress("127.0.0.1", 5000))
			.header("X-Forwarded-For", "6.6.6.6")
			.build();
		assertThat(Ipv4.format(this.resolver.resolve(viaProxy).ipv4())).isEqualTo("6.6.6.6");
		MockServerHttpRequest direct = MockServerHttpRequest.get("/")
			.remoteAddress(new InetSocketAddress("203.0.113.9", 5000))
			.header("X-Forwarded-For", "6.6.6.6")
			.build();
		assertThat(Ipv4.format(this.resolver.resolve(direct).ipv4())).isEqualTo("203.0.113.9");
		assertThat(this.resolver.resolve(MockServerHttpRequest.get("/").build()).ipv4()).isEqualTo(Ipv4.INVALID);
	}

	@Test
	void emptyTrustedListTrustsNobody() {
		ClientIpResolver none = ClientIpResolver.of("");
		assertThat(none.resolve(LOOPBACK_PEER, List.of("6.6.6.6")).ipv4()).isEqualTo(LOOPBACK_PEER);
	}

	@Test
	void badTrustedProxyListFailsNamingTheEntry() {
		assertThatIllegalArgumentException().isThrownBy(() -> ClientIpResolver.of("127.0.0.0/8,proxy.internal"))
			.withMessageContaining("GATEWAY_TRUSTED_PROXIES")
			.withMessageContaining("'proxy.internal'");
	}

	/**
	 * Proof that no header value is ever looked up: a security manager that fails on any
	 * name resolution (InetAddress asks it checkConnect(host, -1) before a lookup). JDK
	 * 17 allows installing one at run time.
	 */
	@Test
	@SuppressWarnings({ "removal", "deprecation" })
	void neverResolvesANameFromTheHeader() throws Exception {
		SecurityManager previous = System.getSecurityManager();
		SecurityManager noLookups = new SecurityManager() {
			@Override
			public void checkConnect(String host, int port) {
				if (port == -1) {
					throw new SecurityException("DNS lookup of " + host);
				}
			}

			@Override
			public void checkPermission(Permission perm) {
			}
		};
		try {
			System.setSecurityManager(noLookups);
		}
		catch (UnsupportedOperationException ex) {
			assumeThat(ex).as("security manager not allowed on this JDK").isNull();
		}
		try {
			// The guard works: an InetAddress lookup of a name fails under it.
			org.assertj.core.api.Assertions
				.assertThatThrownBy(() -> java.net.InetAddress.getByName("gateway-lab.invalid"))
				.isInstanceOf(SecurityException.class);
			for (String header : List.of("localhost", "example.com", "unknown", "gateway-lab.invalid:80", "1.2.3",
					"6.6.6.6, host.internal", "[::1]", "[gateway-lab.invalid]:80", "::ffff:gateway-lab.invalid")) {
				this.resolver.resolve(LOOPBACK_PEER, List.of(header));
				Ipv4.parse(header);
			}
		}
		finally {
			System.setSecurityManager(previous);
		}
	}

	@Test
	void theClientKeyOfAnIpv6ClientBehindAProxyIsItsSlash64NeverTheProxy() {
		ClientKey key = clientKey(LOOPBACK_PEER, "2001:db8::1");
		assertThat(key).isEqualTo(clientKey(LOOPBACK_PEER, "2001:db8:0:0:ffff::2"))
			.isNotEqualTo(clientKey(LOOPBACK_PEER, "2001:db8:0:1::1"))
			.isNotEqualTo(clientKey(LOOPBACK_PEER));
		assertThat(key.describe()).isEqualTo("2001:db8:0:0::/64");
		assertThat(clientKey(LOOPBACK_PEER, "2001:db8::1, 10.0.0.5")).as("behind two proxies").isEqualTo(key);
		assertThat(clientKey(LOOPBACK_PEER, "::ffff:6.6.6.6")).isEqualTo(ClientKey.ipv4(Ipv4.parse("6.6.6.6")));
	}

	@Test
	void aForwardedAddressThatCannotBeReadHasItsOwnKeyNotTheProxys() {
		for (String unreadable : new String[] { "unknown", "1.2.3", "localhost", "", "6.6.6.6, unknown, 10.0.0.5",
				"fe80::1%eth0", "1.2.3.4:", "[1.2.3.4]:80", "localhost:80" }) {
			assertThat(clientKey(LOOPBACK_PEER, unreadable)).as(unreadable).isEqualTo(ClientKey.UNREADABLE);
		}
		assertThat(clientKey(LOOPBACK_PEER)).isEqualTo(ClientKey.ipv4(LOOPBACK_PEER))
			.isNotEqualTo(ClientKey.UNREADABLE);
		assertThat(clientKey(LOOPBACK_PEER, "6.6.6.6, 10.0.0.5")).isEqualTo(ClientKey.ipv4(Ipv4.parse("6.6.6.6")));
		assertThat(clientKey(UNTRUSTED_PEER, "unknown")).as("not read from an untrusted peer")
			.isEqualTo(ClientKey.ipv4(UNTRUSTED_PEER));
	}

	@Test
	void anIpv6PeerIsKeyedByItsSlash64() {
		MockServerHttpRequest request = MockServerHttpRequest.post("/login")
			.remoteAddress(new InetSocketAddress("2001:db8::7", 40000))
			.header("X-Forwarded-For", "6.6.6.6")
			.build();
		assertThat(this.resolver.resolve(request).key().describe()).isEqualTo("2001:db8:0:0::/64");
	}

	@Test
	void aClientWrittenWithAPortOrInIpv6FormHasTheKeyOfItsAddress() {
		ClientKey ipv4 = ClientKey.ipv4(Ipv4.parse("6.6.6.6"));
		for (String sameClient : new String[] { "6.6.6.6", "6.6.6.6:51234", "::ffff:6.6.6.6", "[::ffff:6.6.6.6]:443",
				"6.6.6.6:1, 10.0.0.5:9" }) {
			assertThat(clientKey(LOOPBACK_PEER, sameClient)).as(sameClient).isEqualTo(ipv4);
		}
		assertThat(clientKey(LOOPBACK_PEER, "[2001:db8::1]:80")).isEqualTo(clientKey(LOOPBACK_PEER, "2001:db8::1"))
			.isNotEqualTo(ClientKey.UNREADABLE);
	}

	@Test
	void theClientIsResolvedOncePerExchangeAndKeptForEveryFeature() {
		MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/")
			.remoteAddress(new InetSocketAddress("127.0.0.1", 5000))
			.header("X-Forwarded-For", "6.6.6.6:51234"));
		ClientAddress client = this.resolver.client(exchange);
		assertThat(client).isEqualTo(ClientAddress.ipv4(Ipv4.parse("6.6.6.6")));
		assertThat(this.resolver.client(exchange)).isSameAs(client);
		assertThat(exchange.<ClientAddress>getAttribute(ClientIpResolver.CLIENT_ATTRIBUTE)).isSameAs(client);
		// what is on the exchange is what every later reader gets: no second parse
		ClientAddress other = ClientAddress.ipv4(Ipv4.parse("7.7.7.7"));
		exchange.getAttributes().put(ClientIpResolver.CLIENT_ATTRIBUTE, other);
		assertThat(this.resolver.client(exchange)).isSameAs(other);
	}

	ClientKey clientKey(long peer, String... lines) {
		return this.resolver.resolve(peer, (lines.length == 0) ? null : Arrays.asList(lines)).key();
	}

}
