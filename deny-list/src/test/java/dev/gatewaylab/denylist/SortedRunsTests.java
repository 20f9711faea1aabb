package dev.gatewaylab.denylist;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The chunk sort of {@link SortedRuns}: by first address, unsigned, whatever the last
 * addresses, with every key kept.
 */
class SortedRunsTests {

	@Test
	void sortsByFirstAddressAcrossTheWholeUnsignedRange() {
		Random random = new Random(7);
		int n = 100_000;
		long[] keys = new long[n];
		for (int i = 0; i < n; i++) {
			// Half of them above 127.255.255.255.
			long first = random.nextInt() & 0xFFFFFFFFL;
			long last = first + random.nextInt(1 << 12);
			keys[i] = DenyList.pack(first, Math.min(last, 0xFFFFFFFFL));
		}
		keys[0] = DenyList.pack(0, 0);
		keys[1] = DenyList.pack(0xFFFFFFFFL, 0xFFFFFFFFL);
		keys[2] = DenyList.pack(0x80000000L, 0x80000000L);
		keys[3] = DenyList.pack(0x7FFFFFFFL, 0x7FFFFFFFL);
		assertSortsByFirstKeepingEveryKey(keys);
	}

	@Test
	void rulesWithOneFirstAddressStayTogetherAndNoneIsLost() {
		Random random = new Random(11);
		int n = 10_000;
		long[] keys = new long[n];
		for (int i = 0; i < n; i++) {
			// One /16: the two upper bytes' passes are skipped.
			long first = 0xC0A80000L + random.nextInt(16);
			keys[i] = DenyList.pack(first, first + random.nextInt(100));
		}
		assertSortsByFirstKeepingEveryKey(keys);
	}

	@Test
	void sortsOnlyTheCountedPrefix() {
		long[] keys = { DenyList.pack(9, 9), DenyList.pack(3, 3), DenyList.pack(1, 1), DenyList.pack(0, 0) };
		SortedRuns.sortByFirst(keys, 3, new long[3]);
		assertThat(keys).containsExactly(DenyList.pack(1, 1), DenyList.pack(3, 3), DenyList.pack(9, 9),
				DenyList.pack(0, 0));
		SortedRuns.sortByFirst(keys, 0, new long[0]);
		assertThat(keys[0]).isEqualTo(DenyList.pack(1, 1));
	}

	/**
	 * Sorts {@code keys} in place: its first addresses come out in a comparison sort's
	 * order, and it holds the same keys.
	 */
	private static void assertSortsByFirstKeepingEveryKey(long[] keys) {
		long[] expected = keys.clone();
		Arrays.sort(expected);
		SortedRuns.sortByFirst(keys, keys.length, new long[keys.length]);
		assertThat(firsts(keys)).containsExactly(firsts(expected));
		assertThat(sorted(keys)).containsExactly(expected);
	}

	private static long[] firsts(long[] keys) {
		return Arrays.stream(keys).map(DenyList::first).toArray();
	}

	private static long[] sorted(long[] keys) {
		long[] copy = keys.clone();
		Arrays.sort(copy);
		return copy;
	}

}
