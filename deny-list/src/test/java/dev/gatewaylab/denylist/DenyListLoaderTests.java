package dev.gatewaylab.denylist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class DenyListLoaderTests {

	@TempDir
	Path dir;

	Path file(String content) throws IOException {
		Path file = this.dir.resolve("deny-list.txt");
		Files.writeString(file, content, StandardCharsets.ISO_8859_1);
		return file;
	}

	@Test
	void readsAddressesCidrsCommentsAndBlankLines() throws IOException {
		DenyList list = DenyListLoader.load(file("""
				# office scanners
				10.0.0.0/8

				192.168.1.7
				  203.0.113.0/24   # trailing comment\r
				198.51.100.1/32
				\t
				"""), OnError.FAIL);
		assertThat(list.rules()).isEqualTo(4);
		assertThat(DenyListTests.intervals(list)).isEqualTo(
				"10.0.0.0-10.255.255.255 192.168.1.7-192.168.1.7 198.51.100.1-198.51.100.1 203.0.113.0-203.0.113.255");
	}

	@Test
	void readsTheFieldReportsPropertiesForm() throws IOException {
		DenyList list = DenyListLoader.load(file("""
				! properties comment
				deny.1=10.0.0.0/8
				deny.2 = 192.168.1.7
				172.16.0.0/12=deny
				203.0.113.5 = office printer
				"""), OnError.FAIL);
		assertThat(DenyListTests.intervals(list)).isEqualTo(
				"10.0.0.0-10.255.255.255 172.16.0.0-172.31.255.255 192.168.1.7-192.168.1.7 203.0.113.5-203.0.113.5");
	}

	@Test
	void lastLineWithoutNewlineAndEmptyFiles() throws IOException {
		assertThat(DenyListLoader.load(file("1.2.3.4\n5.6.7.8"), OnError.FAIL).rules()).isEqualTo(2);
		assertThat(DenyListLoader.load(file(""), OnError.FAIL).intervals()).isZero();
		assertThat(DenyListLoader.load(file("# nothing\n\n"), OnError.FAIL).intervals()).isZero();
	}

	@Test
	void badLineFailsNamingFileLineAndReason() throws IOException {
		Path file = file("10.0.0.0/8\n# ok\n10.0.0.1/8\n");
		assertThatExceptionOfType(DenyListException.class).isThrownBy(() -> DenyListLoader.load(file, OnError.FAIL))
			.withMessage(file + ":3: host bits set: did you mean 10.0.0.0/8?: '10.0.0.1/8'")
			.satisfies((ex) -> assertThat(ex.line()).isEqualTo(3));
	}

	@Test
	void ipv6RuleIsAClearError() throws IOException {
		Path file = file("10.0.0.0/8\n2001:db8::/32\n");
		assertThatExceptionOfType(DenyListException.class).isThrownBy(() -> DenyListLoader.load(file, OnError.FAIL))
			.withMessageStartingWith(file + ":2: IPv6 rules are not supported");
	}

	@Test
	void everyKindOfBadLineHasAReason() throws IOException {
		String[][] cases = { { "1.2.3", "not an IPv4 address" }, { "300.1.1.1", "not an IPv4 address" },
				{ "1.2.3.4/33", "bad prefix length" }, { "1.2.3.4/", "bad prefix length" },
				{ "1.2.3.4/8x", "bad prefix length" }, { "example.com", "not an IPv4 address" },
				{ "1.2.3.4 5.6.7.8", "not an IPv4 address" }, { "deny.1=", "no IPv4 address or CIDR on either side" },
				{ "deny.1=1.2.3.4/40", "bad prefix length" }, { "1.2.3.4=5.6.7.8", "both sides of '=' are addresses" },
				{ "deny=::1", "IPv6" }, { "1.2.3.1/24=deny", "did you mean 1.2.3.0/24?" } };
		for (String[] c : cases) {
			Path file = file(c[0] + "\n");
			assertThatExceptionOfType(DenyListException.class).as(c[0])
				.isThrownBy(() -> DenyListLoader.load(file, OnError.FAIL))
				.withMessageContaining(":1: ")
				.withMessageContaining(c[1]);
		}
	}

	@Test
	void skipModeSkipsCountsAndKeepsSamples() throws IOException {
		StringBuilder text = new StringBuilder("10.0.0.0/8\n");
		for (int i = 0; i < 7; i++) {
			text.append("bad").append(i).append('\n');
		}
		text.append("11.0.0.0/8\n");
		Path file = file(text.toString());
		DenyList list = DenyListLoader.load(file, OnError.SKIP);
		assertThat(list.rules()).isEqualTo(2);
		assertThat(list.intervals()).isEqualTo(1);
		assertThat(list.skippedLines()).isEqualTo(7);
		assertThat(list.skipped()).hasSize(5)
			.first()
			.asString()
			.isEqualTo(file + ":2: not an IPv4 address or CIDR " + "(expected a.b.c.d or a.b.c.d/len): 'bad0'");
	}

	@Test
	void missingFileIsAClearError() {
		Path missing = this.dir.resolve("nope.txt");
		assertThatExceptionOfType(DenyListException.class).isThrownBy(() -> DenyListLoader.load(missing, OnError.SKIP))
			.withMessage(missing + ": no such file");
	}

	@Test
	void linesAcrossBufferBoundariesAndOverlongLines() throws IOException {
		StringBuilder text = new StringBuilder();
		int rules = 0;
		while (text.length() < 3 * (1 << 20)) {
			text.append(rules % 256).append('.').append(rules / 256 % 256).append(".0.0/16\n");
			rules++;
		}
		text.append("x".repeat((1 << 20) + 10)).append("\n9.9.9.9\n");
		Path file = file(text.toString());
		assertThatExceptionOfType(DenyListException.class).isThrownBy(() -> DenyListLoader.load(file, OnError.FAIL))
			.withMessage(file + ":" + (rules + 1) + ": line longer than 1048576 bytes");
		DenyList list = DenyListLoader.load(file, OnError.SKIP);
		assertThat(list.rules()).isEqualTo(rules + 1);
		assertThat(list.denies(Ipv4.parse("9.9.9.9"))).isTrue();
		assertThat(list.denies(Ipv4.parse("255.255.1.1"))).isTrue();
	}

}
