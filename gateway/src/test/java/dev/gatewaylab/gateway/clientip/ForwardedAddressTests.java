package dev.gatewaylab.gateway.clientip;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.gatewaylab.denylist.Ipv4;

import static org.assertj.core.api.Assertions.assertThat;

/** The one reading of a forwarded address, every form a proxy writes. */
class ForwardedAddressTests {

	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource({ "198.51.100.7, 198.51.100.7", "198.51.100.7:51234, 198.51.100.7", "198.51.100.7:0, 198.51.100.7",
			"198.51.100.7:65535, 198.51.100.7", "::ffff:198.51.100.7, 198.51.100.7", "::ffff:c633:6407, 198.51.100.7",
			"[::ffff:198.51.100.7], 198.51.100.7", "[::ffff:198.51.100.7]:443, 198.51.100.7",
			"0:0:0:0:0:ffff:198.51.100.7, 198.51.100.7" })
	void ipv4InEveryForm(String entry, String ipv4) {
		assertThat(parse(entry)).isEqualTo(Ipv4.parse(ipv4));
	}

	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource({ "2001:db8::7, 2001:db8::7", "[2001:db8::7], 2001:db8::7", "[2001:db8::7]:51234, 2001:db8::7",
			"::1, ::1", "[::]:80, ::" })
	void ipv6InEveryForm(String entry, String ipv6) {
		assertThat(parse(entry)).isEqualTo(ForwardedAddress.IPV6);
		assertThat(ForwardedAddress.ipv6(entry, 0, entry.length())).isEqualTo(Ipv6Address.parse(ipv6));
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "unknown", "_hidden", "localhost", "localhost:80", "example.com:443", "1.2.3",
			"300.1.1.1", "001.002.003.004", "1.2.3.4:", "1.2.3.4:65536", "1.2.3.4:123456", "1.2.3.4:-1", "1.2.3.4:8x",
			"1.2.3.4:80:90", "[1.2.3.4]:80", "[1.2.3.4]", "::ffff:1.2.3.4:80", "fe80::1%eth0", "[fe80::1%eth0]:80",
			"2001:db8::/64", "[2001:db8::7", "2001:db8::7]", "[2001:db8::7]:", "[2001:db8::7]x", "[2001:db8::7]:80:90",
			"[]", "[]:80", ":80", ":", "[", "1.2.3.4 :80", " 1.2.3.4" })
	void anythingElseIsUnreadable(String entry) {
		assertThat(parse(entry)).isEqualTo(ForwardedAddress.UNREADABLE);
	}

	@ParameterizedTest
	@ValueSource(strings = { "x1.2.3.4:80y", "a[2001:db8::7]:80b" })
	void readsOnlyItsRange(String line) {
		assertThat(ForwardedAddress.parse(line, 1, line.length() - 1)).isNotEqualTo(ForwardedAddress.UNREADABLE);
	}

	private static long parse(String entry) {
		return ForwardedAddress.parse(entry, 0, entry.length());
	}

}
