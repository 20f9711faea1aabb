package dev.gatewaylab.gateway.denylist;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import dev.gatewaylab.gateway.clientip.Ipv4;
import dev.gatewaylab.gateway.clientip.Ipv4Range;

import static org.assertj.core.api.Assertions.assertThat;

class DenyListTest {

	static DenyList of(String... cidrs) {
		long[] keys = new long[cidrs.length];
		for (int i = 0; i < cidrs.length; i++) {
			Ipv4Range range = Ipv4Range.parseCidr(cidrs[i]);
			keys[i] = DenyList.pack(range.first(), range.last());
		}
		return DenyList.of(keys, keys.length);
	}

	static String intervals(DenyList list) {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < list.intervals(); i++) {
			text.append((i > 0) ? " " : "").append(Ipv4.format(list.first(i))).append('-').append(Ipv4.format(list.last(i)));
		}
		return text.toString();
	}

	@Test
	void packedOrderIsUnsignedAddressOrder() {
		assertThat(DenyList.pack(0x7FFFFFFFL, 0x7FFFFFFFL)).isLessThan(DenyList.pack(0x80000000L, 0x80000000L));
		assertThat(DenyList.pack(0, 0)).isLessThan(DenyList.pack(0xFFFFFFFFL, 0xFFFFFFFFL));
		long key = DenyList.pack(0xC0A80000L, 0xC0A8FFFFL);
		assertThat(DenyList.first(key)).isEqualTo(0xC0A80000L);
		assertThat(DenyList.last(key)).isEqualTo(0xC0A8FFFFL);
	}

	@Test
	void coalescesOverlappingContainedAdjacentAndDuplicateRules() {
		assertThat(intervals(of("10.0.0.0/8", "10.1.0.0/16", "10.255.255.255"))).isEqualTo("10.0.0.0-10.255.255.255");
		assertThat(intervals(of("1.2.3.4", "1.2.3.5", "1.2.3.6/31", "1.2.3.4"))).isEqualTo("1.2.3.4-1.2.3.7");
		assertThat(intervals(of("192.168.1.0/24", "192.168.0.0/24"))).isEqualTo("192.168.0.0-192.168.1.255");
		assertThat(intervals(of("1.2.3.4", "1.2.3.6"))).isEqualTo("1.2.3.4-1.2.3.4 1.2.3.6-1.2.3.6");
		assertThat(intervals(of("127.255.255.255", "128.0.0.0"))).isEqualTo("127.255.255.255-128.0.0.0");
		assertThat(intervals(of("255.255.255.255", "0.0.0.0", "255.255.255.254")))
			.isEqualTo("0.0.0.0-0.0.0.0 255.255.255.254-255.255.255.255");
		assertThat(intervals(of("0.0.0.0/0", "1.2.3.4"))).isEqualTo("0.0.0.0-255.255.255.255");
		assertThat(of("10.0.0.0/8", "10.1.0.0/16").rules()).isEqualTo(2);
	}

	@Test
	void looksUpAtTheEdges() {
		DenyList list = of("10.0.0.0/8", "192.168.1.7", "255.255.255.255", "0.0.0.0");
		assertThat(list.denies(Ipv4.parse("9.255.255.255"))).isFalse();
		assertThat(list.denies(Ipv4.parse("10.0.0.0"))).isTrue();
		assertThat(list.denies(Ipv4.parse("10.255.255.255"))).isTrue();
		assertThat(list.denies(Ipv4.parse("11.0.0.0"))).isFalse();
		assertThat(list.denies(Ipv4.parse("192.168.1.6"))).isFalse();
		assertThat(list.denies(Ipv4.parse("192.168.1.7"))).isTrue();
		assertThat(list.denies(Ipv4.parse("192.168.1.8"))).isFalse();
		assertThat(list.denies(0xFFFFFFFFL)).isTrue();
		assertThat(list.denies(0xFFFFFFFEL)).isFalse();
		assertThat(list.denies(0)).isTrue();
		assertThat(list.denies(1)).isFalse();
		assertThat(DenyList.EMPTY.denies(0)).isFalse();
		assertThat(of("0.0.0.0/0").denies(0x80000000L)).isTrue();
	}

	@Test
	void agreesWithABruteForceOracleOnRandomRules() {
		SplittableRandom random = new SplittableRandom(42);
		for (int round = 0; round < 50; round++) {
			int n = random.nextInt(1, 400);
			long[] first = new long[n];
			long[] last = new long[n];
			long[] keys = new long[n];
			// Clustered in a small window so overlaps, adjacency and gaps all occur.
			long base = random.nextLong(0, 0x1_0000_0000L - 100_000);
			for (int i = 0; i < n; i++) {
				int length = 32 - random.nextInt(0, 12);
				long size = 1L << (32 - length);
				first[i] = (base + random.nextLong(0, 60_000)) & ~(size - 1);
				last[i] = first[i] + size - 1;
				keys[i] = DenyList.pack(first[i], last[i]);
			}
			DenyList list = DenyList.of(keys, n);
			for (int i = 1; i < list.intervals(); i++) {
				assertThat(list.first(i)).as("disjoint, non-adjacent, sorted").isGreaterThan(list.last(i - 1) + 1);
			}
			for (long ip = Math.max(0, base - 5000); ip < base + 70_000; ip++) {
				boolean expected = false;
				for (int i = 0; i < n && !expected; i++) {
					expected = ip >= first[i] && ip <= last[i];
				}
				if (list.denies(ip) != expected) {
					throw new AssertionError("round " + round + ": " + Ipv4.format(ip) + " expected " + expected);
				}
			}
		}
	}

	@Test
	void indexedLookupAgreesWithAPlainSearchOnALargeList() {
		SplittableRandom random = new SplittableRandom(9);
		int n = 300_000;
		long[] keys = new long[n];
		for (int i = 0; i < n; i++) {
			int length = 32 - random.nextInt(0, 10);
			long size = 1L << (32 - length);
			long first = random.nextLong(1L << 32) & ~(size - 1);
			keys[i] = DenyList.pack(first, first + size - 1);
		}
		DenyList list = DenyList.of(keys.clone(), n);
		assertThat(list.intervals()).isGreaterThanOrEqualTo(DenyList.INDEXED);
		long[] sorted = new long[list.intervals()];
		for (int i = 0; i < sorted.length; i++) {
			sorted[i] = list.first(i);
		}
		for (int t = 0; t < 1_000_000; t++) {
			long ip = (t % 4 == 0) ? DenyList.first(keys[random.nextInt(n)]) + random.nextInt(3) - 1 : random.nextLong(1L << 32);
			ip = Math.max(0, Math.min(0xFFFFFFFFL, ip));
			int at = java.util.Arrays.binarySearch(sorted, ip);
			int i = (at >= 0) ? at : -at - 2;
			boolean expected = i >= 0 && ip <= list.last(i);
			if (list.denies(ip) != expected) {
				throw new AssertionError(Ipv4.format(ip) + " expected " + expected);
			}
		}
		assertThat(list.denies(0)).isEqualTo(list.first(0) == 0);
		assertThat(list.denies(0xFFFFFFFFL)).isEqualTo(list.last(list.intervals() - 1) == 0xFFFFFFFFL);
		// Trimmed to its exact size (so 3 M+ rule lists stay within 8 bytes per rule), plus the 256 KiB index.
		assertThat(list.memoryBytes()).isEqualTo(16 + 8L * list.intervals() + 16 + 4L * 65537);
	}

	@Test
	void usesAtMostEightBytesPerRuleWhenNothingCoalesces() {
		long[] keys = new long[1000];
		for (int i = 0; i < keys.length; i++) {
			keys[i] = DenyList.pack(i * 2L, i * 2L);
		}
		DenyList list = DenyList.of(keys, keys.length);
		assertThat(list.intervals()).isEqualTo(1000);
		assertThat((list.memoryBytes() - 16) / list.rules()).isEqualTo(8);
	}

}
