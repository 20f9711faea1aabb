package dev.gatewaylab.gateway.clientip;

import java.net.InetAddress;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.gatewaylab.denylist.Ipv4;

import static org.assertj.core.api.Assertions.assertThat;

class Ipv6AddressTests {

	@ParameterizedTest(name = "{0}")
	@CsvSource({ "2001:db8::1, 2001:0db8:0000:0000:0000:0000:0000:0001",
			"2001:DB8:0:0:8:800:200C:417A, 2001:db8::8:800:200c:417a", ":: , 0:0:0:0:0:0:0:0", "::1, 0::0:1",
			"1::, 1:0:0:0:0:0:0:0", "1:2:3:4:5:6:7::, 1:2:3:4:5:6:7:0", "::2:3:4:5:6:7:8, 0:2:3:4:5:6:7:8",
			"fe80::1:2, fe80:0:0:0:0:0:1:2", "::ffff:192.0.2.1, ::ffff:c000:201",
			"64:ff9b::1.2.3.4, 64:ff9b::102:304" })
	void parsesEveryTextualFormToTheSameAddress(String text, String same) {
		Ipv6Address address = Ipv6Address.parse(text);
		assertThat(address).isNotNull().isEqualTo(Ipv6Address.parse(same));
	}

	@Test
	void readsTheBitsInOrder() throws Exception {
		Ipv6Address address = Ipv6Address.parse("2001:db8:1:2:3:4:5:6");
		assertThat(address.high()).isEqualTo(0x20010DB800010002L);
		assertThat(address.low()).isEqualTo(0x0003000400050006L);
		assertThat(Ipv6Address.of(InetAddress.getByName("2001:db8:1:2:3:4:5:6"))).isEqualTo(address);
		assertThat(Ipv6Address.of(InetAddress.getByName("192.0.2.1"))).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", ":", ":::", "1:", ":1", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "1::2::3", "12345::",
			"g::1", "[::1]", "[2001:db8::1]:80", "fe80::1%eth0", "::1/128", " ::1", "::1 ", "1.2.3.4", "::1.2.3",
			"::1.2.3.4.5", "1:2:3:4:5:6:7:1.2.3.4", "::ffff:300.1.1.1", "unknown", "localhost", "1:2:3:4:5:6:7:8::",
			"::1:2:3:4:5:6:7:8" })
	void rejectsAnythingElse(String text) {
		assertThat(Ipv6Address.parse(text)).isNull();
	}

	@Test
	void anIpv4MappedAddressIsItsIpv4Address() {
		assertThat(Ipv6Address.parse("::ffff:198.51.100.7").ipv4Mapped()).isEqualTo(Ipv4.parse("198.51.100.7"));
		assertThat(Ipv6Address.parse("::198.51.100.7").ipv4Mapped()).isEqualTo(Ipv4.INVALID);
		assertThat(Ipv6Address.parse("2001:db8::1").ipv4Mapped()).isEqualTo(Ipv4.INVALID);
	}

	@Test
	void formatsThe64BitPrefix() {
		assertThat(Ipv6Address.formatPrefix64(Ipv6Address.parse("2001:db8:0:1:ffff::1").high()))
			.isEqualTo("2001:db8:0:1::/64");
	}

}
