package dev.gatewaylab.gateway.denylist;

import java.util.Arrays;
import java.util.List;

/**
 * An immutable set of IPv4 addresses, held as sorted, disjoint, non-adjacent intervals in one {@code long[]}: each
 * interval is packed as {@code (first ^ 0x80000000) << 32 | last}, so signed {@code long} order is unsigned
 * {@code first} order and a lookup is one branch-free binary search over primitives (8 bytes per interval, no
 * objects, no allocation).
 */
final class DenyList {

	static final DenyList EMPTY = new DenyList(new long[0], 0, 0, 0, List.of(), 0);

	/** Lists with at least this many intervals get the top-16-bit index (a plain search is all in cache below). */
	static final int INDEXED = 1 << 16;

	private final long[] intervals;

	/**
	 * {@code index[h]} = how many intervals start below {@code h << 16}: a lookup binary-searches only the few
	 * intervals of its /16 (plus the one before), not the whole array, so it touches a handful of cache lines instead
	 * of one per level of a 22-25-level search. 256 KiB; null for small lists.
	 */
	private final int[] index;

	private final int size;

	private final long rules;

	private final long skippedLines;

	private final List<String> skipped;

	private final long loadNanos;

	private DenyList(long[] intervals, int size, long rules, long skippedLines, List<String> skipped, long loadNanos) {
		this.intervals = intervals;
		this.size = size;
		this.index = (size >= INDEXED) ? index(intervals, size) : null;
		this.rules = rules;
		this.skippedLines = skippedLines;
		this.skipped = skipped;
		this.loadNanos = loadNanos;
	}

	/**
	 * Sorts and coalesces {@code keys[0, count)} (packed with {@link #pack}) in place; the array becomes the list's
	 * storage unless more than an eighth of it would be wasted, then it is copied to its exact size.
	 */
	static DenyList build(long[] keys, int count, long skippedLines, List<String> skipped, long startNanos) {
		Arrays.sort(keys, 0, count);
		int size = coalesce(keys, count);
		// Copied to its exact size when more than an eighth would be wasted, or to stay within 8 bytes per rule.
		long indexBytes = (size >= INDEXED) ? 4L * ((1 << 16) + 1) : 0;
		boolean trim = keys.length - size > keys.length / 8 || 8L * keys.length + indexBytes > 8L * count;
		long[] storage = (trim && size < keys.length) ? Arrays.copyOf(keys, size) : keys;
		return new DenyList(storage, size, count, skippedLines, List.copyOf(skipped), System.nanoTime() - startNanos);
	}

	static DenyList of(long[] keys, int count) {
		return build(keys, count, 0, List.of(), System.nanoTime());
	}

	/** Merges overlapping and adjacent intervals of sorted {@code keys[0, count)}; returns how many remain. */
	static int coalesce(long[] keys, int count) {
		if (count == 0) {
			return 0;
		}
		int size = 0;
		long first = first(keys[0]);
		long last = last(keys[0]);
		for (int i = 1; i < count; i++) {
			long f = first(keys[i]);
			long l = last(keys[i]);
			if (f <= last + 1) {
				last = Math.max(last, l);
			}
			else {
				keys[size++] = pack(first, last);
				first = f;
				last = l;
			}
		}
		keys[size++] = pack(first, last);
		return size;
	}

	static long pack(long first, long last) {
		return ((first ^ 0x80000000L) << 32) | last;
	}

	static long first(long key) {
		return (key >>> 32) ^ 0x80000000L;
	}

	static long last(long key) {
		return key & 0xFFFFFFFFL;
	}

	private static int[] index(long[] intervals, int size) {
		int[] index = new int[(1 << 16) + 1];
		int i = 0;
		for (int h = 0; h <= 1 << 16; h++) {
			while (i < size && first(intervals[i]) < ((long) h << 16)) {
				i++;
			}
			index[h] = i;
		}
		return index;
	}

	/** @param ip an unsigned IPv4 value (0..0xFFFFFFFF) */
	boolean denies(long ip) {
		long[] a = this.intervals;
		long probe = ((ip ^ 0x80000000L) << 32) | 0xFFFFFFFFL; // sorts after every interval starting at ip
		int base = 0;
		int n = this.size;
		int[] index = this.index;
		if (index != null) {
			// The answer is the last interval starting at or before ip: one of this /16's, or the one before them.
			int h = (int) (ip >>> 16);
			base = Math.max(0, index[h] - 1);
			n = index[h + 1] - base;
		}
		if (n == 0 || a[base] > probe) {
			return false;
		}
		while (n > 1) { // invariant: a[base] <= probe
			int half = n >>> 1;
			base = (a[base + half] <= probe) ? base + half : base;
			n -= half;
		}
		return (a[base] & 0xFFFFFFFFL) >= ip;
	}

	/** Rules read (before coalescing). */
	long rules() {
		return this.rules;
	}

	int intervals() {
		return this.size;
	}

	long first(int interval) {
		return first(this.intervals[interval]);
	}

	long last(int interval) {
		return last(this.intervals[interval]);
	}

	long skippedLines() {
		return this.skippedLines;
	}

	/** The first few skipped lines, each as "file:line: reason". */
	List<String> skipped() {
		return this.skipped;
	}

	/** Heap held by the list: the interval array (16-byte header + 8 bytes per slot) and the index if any. */
	long memoryBytes() {
		return 16 + 8L * this.intervals.length + ((this.index != null) ? 16 + 4L * this.index.length : 0);
	}

	long loadNanos() {
		return this.loadNanos;
	}

	@Override
	public String toString() {
		return String.format("%,d rules -> %,d intervals, %,d bytes, %,d bad lines skipped, loaded in %d ms", this.rules,
				this.size, memoryBytes(), this.skippedLines, this.loadNanos / 1_000_000);
	}

}
