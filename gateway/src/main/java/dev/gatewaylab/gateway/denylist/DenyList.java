package dev.gatewaylab.gateway.denylist;

import java.util.Arrays;
import java.util.List;

/**
 * An immutable set of IPv4 addresses. Rules are sorted and coalesced into disjoint,
 * non-adjacent intervals; the list keeps only their <em>boundaries</em> (each interval's
 * first address and the address after its last), sorted, so an address is denied when an
 * odd number of boundaries lie at or below it. A direct index by the top {@code bits}
 * address bits ({@code index[h]} = how many boundaries lie below bucket {@code h}) leaves
 * a search among the few boundaries of one bucket, whose top 16 bits are implied: each
 * boundary is stored as its low 16 bits in a {@code short[]}. That is 4 bytes per
 * interval plus the index (one int per 4–8 boundaries: 1–2 bytes per interval), and a
 * lookup touches two cache lines: one index entry, then a bucket of about 4 boundaries
 * (no objects, no allocation).
 */
final class DenyList {

	static final DenyList EMPTY = of(new long[0], 0);

	/**
	 * Fewest index bits (a 256 KiB index: the low 16 bits stored per boundary then always
	 * order a bucket).
	 */
	static final int MIN_BITS = 16;

	/** Most index bits (a 64 MiB index, for lists over 130 M intervals). */
	static final int MAX_BITS = 24;

	/**
	 * The index aims at this many boundaries per bucket on average: one cache line of
	 * {@code short}s, or less.
	 */
	static final int BUCKET = 4;

	/** Buckets up to this many boundaries are counted in one pass instead of searched. */
	static final int LINEAR = 16;

	/** The low 16 bits of each boundary, in address order. */
	private final short[] bounds;

	/**
	 * {@code index[h]} = boundaries below {@code h << shift}, for {@code h} in
	 * {@code [0, 2^bits]}.
	 */
	private final int[] index;

	private final int shift;

	private final int size;

	private final long rules;

	private final long skippedLines;

	private final List<String> skipped;

	private final long loadNanos;

	private DenyList(short[] bounds, int[] index, int shift, int size, long rules, long skippedLines,
			List<String> skipped, long loadNanos) {
		this.bounds = bounds;
		this.index = index;
		this.shift = shift;
		this.size = size;
		this.rules = rules;
		this.skippedLines = skippedLines;
		this.skipped = skipped;
		this.loadNanos = loadNanos;
	}

	/**
	 * Sorts and coalesces {@code keys[0, count)} (packed with {@link #pack}) in place,
	 * then builds the boundaries and their index; {@code keys} is not kept.
	 */
	static DenyList build(long[] keys, int count, long skippedLines, List<String> skipped, long startNanos) {
		Arrays.sort(keys, 0, count);
		int size = coalesce(keys, count);
		// The address after 255.255.255.255 is not stored: an odd count up to the end
		// then means "denied to the end".
		int boundaries = (size > 0 && last(keys[size - 1]) == 0xFFFFFFFFL) ? 2 * size - 1 : 2 * size;
		int bits = bits(boundaries);
		int shift = 32 - bits;
		short[] bounds = new short[boundaries];
		int[] index = new int[(1 << bits) + 1];
		int h = 0;
		for (int i = 0; i < boundaries; i++) {
			long value = ((i & 1) == 0) ? first(keys[i >> 1]) : last(keys[i >> 1]) + 1;
			bounds[i] = (short) value;
			for (long bucket = value >>> shift; h <= bucket; h++) {
				index[h] = i;
			}
		}
		Arrays.fill(index, h, index.length, boundaries);
		return new DenyList(bounds, index, shift, size, count, skippedLines, List.copyOf(skipped),
				System.nanoTime() - startNanos);
	}

	static DenyList of(long[] keys, int count) {
		return build(keys, count, 0, List.of(), System.nanoTime());
	}

	/**
	 * Index bits for this many boundaries: about {@link #BUCKET} per bucket, within
	 * [MIN_BITS, MAX_BITS].
	 */
	static int bits(int boundaries) {
		int bits = 31 - Integer.numberOfLeadingZeros(Math.max(1, boundaries / BUCKET));
		return Math.max(MIN_BITS, Math.min(MAX_BITS, bits));
	}

	/**
	 * Merges overlapping and adjacent intervals of sorted {@code keys[0, count)}; returns
	 * how many remain.
	 */
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

	/**
	 * One interval as a {@code long} whose signed order is unsigned {@code first} order.
	 */
	static long pack(long first, long last) {
		return ((first ^ 0x80000000L) << 32) | last;
	}

	static long first(long key) {
		return (key >>> 32) ^ 0x80000000L;
	}

	static long last(long key) {
		return key & 0xFFFFFFFFL;
	}

	/**
	 * @param ip an unsigned IPv4 value (0..0xFFFFFFFF)
	 */
	boolean denies(long ip) {
		int h = (int) (ip >>> this.shift);
		int at = this.index[h];
		int end = this.index[h + 1];
		int key = (int) ip & 0xFFFF;
		short[] b = this.bounds;
		while (end - at > LINEAR) { // a crowded bucket: halve it until a scan is cheaper
									// than mispredicted branches
			int mid = (at + end) >>> 1;
			if ((b[mid] & 0xFFFF) <= key) {
				at = mid + 1;
			}
			else {
				end = mid;
			}
		}
		for (int i = at; i < end; i++) { // no early exit: a count without branches to
											// mispredict
			at += ((b[i] & 0xFFFF) <= key) ? 1 : 0;
		}
		return (at & 1) == 1; // 'at' boundaries lie at or below ip
	}

	/** Rules read (before coalescing). */
	long rules() {
		return this.rules;
	}

	int intervals() {
		return this.size;
	}

	long first(int interval) {
		return boundary(2 * interval);
	}

	long last(int interval) {
		int end = 2 * interval + 1;
		return (end == this.bounds.length) ? 0xFFFFFFFFL : boundary(end) - 1;
	}

	/**
	 * The full value of boundary {@code i}: its bucket (from the index) and its stored
	 * low bits.
	 */
	private long boundary(int i) {
		int lo = 0;
		int hi = this.index.length - 1; // the bucket h with index[h] <= i < index[h + 1]
		while (hi - lo > 1) {
			int mid = (lo + hi) >>> 1;
			if (this.index[mid] <= i) {
				lo = mid;
			}
			else {
				hi = mid;
			}
		}
		return ((long) lo << this.shift) | ((this.bounds[i] & 0xFFFF) & ((1 << this.shift) - 1));
	}

	/** Index bits in use (the bucket is the top this-many address bits). */
	int indexBits() {
		return 32 - this.shift;
	}

	long skippedLines() {
		return this.skippedLines;
	}

	/** The first few skipped lines, each as "file:line: reason". */
	List<String> skipped() {
		return this.skipped;
	}

	/**
	 * Heap held by the list: the two arrays, each a 16-byte header plus its elements,
	 * padded to 8 bytes.
	 */
	long memoryBytes() {
		return arrayBytes(2L * this.bounds.length) + arrayBytes(4L * this.index.length);
	}

	private static long arrayBytes(long elementBytes) {
		return 16 + ((elementBytes + 7) & ~7L);
	}

	long loadNanos() {
		return this.loadNanos;
	}

	@Override
	public String toString() {
		return String.format(
				"%,d rules -> %,d intervals, %,d bytes (%d-bit index), %,d bad lines skipped, " + "loaded in %d ms",
				this.rules, this.size, memoryBytes(), indexBits(), this.skippedLines, this.loadNanos / 1_000_000);
	}

}
