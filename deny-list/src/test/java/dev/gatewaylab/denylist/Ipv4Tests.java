package dev.gatewaylab.denylist;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class Ipv4Tests {

	@Test
	void parsesStrictDottedQuads() {
		assertThat(Ipv4.parse("0.0.0.0")).isZero();
		assertThat(Ipv4.parse("255.255.255.255")).isEqualTo(0xFFFFFFFFL);
		assertThat(Ipv4.parse("10.1.2.3")).isEqualTo(0x0A010203L);
		assertThat(Ipv4.parse("192.168.100.200")).isEqualTo(0xC0A864C8L);
		byte[] bytes = " 10.0.0.1 ".getBytes();
		assertThat(Ipv4.parse(new AsciiChars(bytes), 1, 9)).isEqualTo(0x0A000001L);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "unknown", "1.2.3", "1.2.3.4.5", "300.1.1.1", "256.0.0.0", "1.2.3.4:80",
			"[1.2.3.4]", "01.2.3.4", "001.002.003.004", "1..2.3", ".1.2.3", "1.2.3.", "1.2.3.4 ", " 1.2.3.4",
			"1.2.3.-4", "localhost", "example.com", "::1", "::ffff:1.2.3.4", "fe80::1%eth0", "1.2.3.4/32", "0x7f.0.0.1",
			"1111.2.3.4", "1.2.3.4444", "１.2.3.4" })
	void rejectsAnythingElse(String text) {
		assertThat(Ipv4.parse(text)).isEqualTo(Ipv4.INVALID);
		byte[] bytes = text.getBytes();
		assertThat(Ipv4.parse(new AsciiChars(bytes), 0, bytes.length)).isEqualTo(Ipv4.INVALID);
	}

	@Test
	void readsBytesAsTheirOwnCharactersInPlace() {
		byte[] bytes = { '1', '.', (byte) 0xB2, (byte) 0xFF };
		AsciiChars chars = new AsciiChars(bytes);
		assertThat(chars.length()).isEqualTo(4);
		assertThat(chars.charAt(2)).isEqualTo('\u00B2'); // a byte over 127 is no digit
		assertThat(chars).hasToString("1.\u00B2\u00FF");
		assertThat(chars.subSequence(0, 2)).hasToString("1.");
		bytes[0] = '7';
		assertThat(chars.charAt(0)).as("a view, not a copy").isEqualTo('7');
	}

	@Test
	void formatsAndReadsSocketAddresses() throws Exception {
		assertThat(Ipv4.format(0xC0A864C8L)).isEqualTo("192.168.100.200");
		assertThat(Ipv4.format(Ipv4.INVALID)).isEqualTo("-");
		InetAddress v4 = InetAddress.getByAddress(new byte[] { (byte) 203, 0, 113, 7 });
		assertThat(Ipv4.of(new InetSocketAddress(v4, 80))).isEqualTo(0xCB007107L);
		InetAddress v6 = InetAddress.getByAddress(new byte[16]);
		assertThat(Ipv4.of(new InetSocketAddress(v6, 80))).isEqualTo(Ipv4.INVALID);
		assertThat(Ipv4.of(InetSocketAddress.createUnresolved("example.com", 80))).isEqualTo(Ipv4.INVALID);
		assertThat(Ipv4.of((InetSocketAddress) null)).isEqualTo(Ipv4.INVALID);
	}

	@Test
	void parsesCidrs() {
		assertThat(Ipv4Range.parseCidr("10.0.0.0/8")).isEqualTo(new Ipv4Range(0x0A000000L, 0x0AFFFFFFL));
		assertThat(Ipv4Range.parseCidr("1.2.3.4")).isEqualTo(new Ipv4Range(0x01020304L, 0x01020304L));
		assertThat(Ipv4Range.parseCidr("0.0.0.0/0")).isEqualTo(new Ipv4Range(0, 0xFFFFFFFFL));
		assertThat(Ipv4Range.parseCidr(" 1.2.3.4/32 ")).isEqualTo(new Ipv4Range(0x01020304L, 0x01020304L));
	}

	@ParameterizedTest
	@ValueSource(strings = { "10.0.0.1/8", "1.2.3.4/33", "1.2.3.4/", "1.2.3.4/-1", "1.2.3.4/x", "::1/128", "a/8",
			"1.2.3/24" })
	void rejectsBadCidrsSayingWhy(String text) {
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> Ipv4Range.parseCidr(text))
			.withMessageContaining("'" + text + "'");
	}

	@Test
	void suggestsTheNetworkWhenHostBitsAreSet() {
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> Ipv4Range.parseCidr("10.0.0.1/8"))
			.withMessageContaining("did you mean 10.0.0.0/8?");
	}

}
