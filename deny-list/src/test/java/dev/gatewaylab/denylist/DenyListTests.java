package dev.gatewaylab.denylist;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DenyListTests {

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
			text.append((i > 0) ? " " : "")
				.append(Ipv4.format(list.first(i)))
				.append('-')
				.append(Ipv4.format(list.last(i)));
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
	void agreesWithAnIndependentOracleOnALargeListWithAFinerIndex() {
		SplittableRandom random = new SplittableRandom(9);
		int n = 600_000;
		long[] keys = new long[n];
		for (int i = 0; i < n; i++) {
			int length = 32 - random.nextInt(0, 10);
			long size = 1L << (32 - length);
			long first = random.nextLong(1L << 32) & ~(size - 1);
			keys[i] = DenyList.pack(first, first + size - 1);
		}
		keys[0] = DenyList.pack(0, 0);
		keys[1] = DenyList.pack(0xFFFFFFF0L, 0xFFFFFFFFL);
		DenyList list = DenyList.of(keys.clone(), n);
		assertThat(list.indexBits()).as("finer than /16 for a large list").isGreaterThan(DenyList.MIN_BITS);
		// Oracle without the list: rules sorted by first address, with the running
		// maximum of their last address.
		long[] sorted = keys.clone();
		java.util.Arrays.sort(sorted);
		long[] firsts = new long[n];
		long[] reach = new long[n];
		for (int i = 0; i < n; i++) {
			firsts[i] = DenyList.first(sorted[i]);
			reach[i] = Math.max((i > 0) ? reach[i - 1] : -1, DenyList.last(sorted[i]));
		}
		for (int t = 0; t < 1_000_000; t++) {
			long edge = (random.nextBoolean()) ? DenyList.first(keys[random.nextInt(n)])
					: DenyList.last(keys[random.nextInt(n)]);
			long ip = (t % 2 == 0) ? edge + random.nextInt(3) - 1 : random.nextLong(1L << 32);
			ip = Math.max(0, Math.min(0xFFFFFFFFL, ip));
			int at = java.util.Arrays.binarySearch(firsts, ip);
			int i = (at >= 0) ? at : -at - 2;
			while (at >= 0 && i + 1 < n && firsts[i + 1] == ip) {
				i++;
			}
			boolean expected = i >= 0 && reach[i] >= ip;
			if (list.denies(ip) != expected) {
				throw new AssertionError(Ipv4.format(ip) + " expected " + expected);
			}
		}
		assertThat(list.denies(0)).isTrue();
		assertThat(list.denies(0xFFFFFFFFL)).isTrue();
		assertThat(list.last(list.intervals() - 1)).isEqualTo(0xFFFFFFFFL);
		assertThat(list.first(0)).isZero();
	}

	@Test
	void staysWellUnderEightBytesPerRuleWhenNothingCoalesces() {
		int n = 1_000_000;
		long[] keys = new long[n];
		for (int i = 0; i < n; i++) {
			keys[i] = DenyList.pack(i * 4096L, i * 4096L);
		}
		DenyList list = DenyList.of(keys, n);
		assertThat(list.intervals()).isEqualTo(n);
		// 2 M boundaries of 2 bytes, and an index of 2^18 ints (about BUCKET = 4
		// boundaries per bucket).
		assertThat(list.indexBits()).isEqualTo(18);
		// A 128-byte header, the index, then 2 bytes per boundary.
		assertThat(list.memoryBytes()).isEqualTo(128 + 4L * ((1 << 18) + 1) + 2L * 2 * n);
		assertThat((double) list.memoryBytes() / list.rules()).isLessThan(5.1);
		assertThat(list.first(n - 1)).isEqualTo((n - 1) * 4096L);
		assertThat(list.last(n - 1)).isEqualTo((n - 1) * 4096L);
	}

	@Test
	void picksTheIndexSizeFromTheBoundaryCount() {
		assertThat(DenyList.bits(0)).isEqualTo(16);
		assertThat(DenyList.bits(4 << 16)).isEqualTo(16);
		assertThat(DenyList.bits((4 << 17) - 1)).isEqualTo(16);
		assertThat(DenyList.bits(4 << 17)).isEqualTo(17);
		assertThat(DenyList.bits(57_634_744)).isEqualTo(23);
		assertThat(DenyList.bits(Integer.MAX_VALUE)).isEqualTo(24);
	}

}
