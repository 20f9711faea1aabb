package dev.gatewaylab.denylist;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.nio.ShortBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * An immutable set of IPv4 addresses, read in place from the compiled form of a deny list
 * ({@link DenyListFile}): a memory-mapped file, so the list lives off the Java heap.
 * Rules are sorted and coalesced into disjoint, non-adjacent intervals; the list keeps
 * only their <em>boundaries</em> (each interval's first address and the address after its
 * last), sorted, so an address is denied when an odd number of boundaries lie at or below
 * it. A direct index by the top {@code bits} address bits ({@code index[h]} = how many
 * boundaries lie below bucket {@code h}) leaves a search among the few boundaries of one
 * bucket, whose top 16 bits are implied: each boundary is stored as its low 16 bits. That
 * is 4 bytes per interval plus the index (one int per 4–8 boundaries), and a lookup reads
 * one index entry and one bucket of about 4 boundaries: no objects, no allocation.
 */
public final class DenyList {

	/** No rules: denies nothing. */
	public static final DenyList EMPTY = of(new long[0], 0);

	/**
	 * Fewest index bits (a 256 KiB index: the low 16 bits stored per boundary then always
	 * order a bucket).
	 */
	static final int MIN_BITS = 16;

	/** Most index bits (a 64 MiB index, for lists over 130 M intervals). */
	static final int MAX_BITS = 24;

	/**
	 * The index aims at this many boundaries per bucket on average: one cache line of
	 * boundaries, or less.
	 */
	static final int BUCKET = 4;

	/** Buckets up to this many boundaries are counted in one pass instead of searched. */
	static final int LINEAR = 16;

	/**
	 * The whole compiled form (a mapping of the compiled file, or a buffer in memory).
	 */
	private final ByteBuffer data;

	/**
	 * {@code index.get(h)} = boundaries below {@code h << shift}, for {@code h} in
	 * {@code [0, 2^bits]}.
	 */
	private final IntBuffer index;

	/** The low 16 bits of each boundary, in address order. */
	private final ShortBuffer bounds;

	private final int shift;

	private final DenyListFile.Header header;

	private final Path file;

	private final long loadNanos;

	private final boolean compiled;

	DenyList(ByteBuffer data, IntBuffer index, ShortBuffer bounds, DenyListFile.Header header, Path file,
			long loadNanos, boolean compiled) {
		this.data = data;
		this.index = index;
		this.bounds = bounds;
		this.shift = 32 - header.indexBits();
		this.header = header;
		this.file = file;
		this.loadNanos = loadNanos;
		this.compiled = compiled;
	}

	/**
	 * A list built in memory (tests, the tool's generator): sorts and coalesces
	 * {@code keys[0, count)} (packed with {@link #pack}) in place and writes the compiled
	 * form into a direct buffer; {@code keys} is not kept.
	 */
	public static DenyList of(long[] keys, int count) {
		long start = System.nanoTime();
		Arrays.sort(keys, 0, count);
		int size = coalesce(keys, count);
		DenyListFile.Header header = DenyListFile.Header.of(0, 0, count, 0, List.of(), size,
				size > 0 && last(keys[size - 1]) == 0xFFFFFFFFL, 0);
		ByteBuffer data = ByteBuffer.allocateDirect((int) DenyListFile.size(header));
		DenyListWriter writer = new DenyListWriter(DenyListWriter.into(data), header.size(), header.indexBits());
		try {
			for (int i = 0; i < size; i++) {
				writer.add(first(keys[i]), last(keys[i]));
			}
			writer.finish(header);
			return DenyListFile.open(data, null, start, false);
		}
		catch (java.io.IOException | DenyListFile.InvalidException ex) {
			throw new IllegalStateException("a list built in memory must be valid", ex);
		}
	}

	/**
	 * Index bits for this many boundaries: about {@link #BUCKET} per bucket, within
	 * [MIN_BITS, MAX_BITS].
	 */
	static int bits(long boundaries) {
		int bits = 63 - Long.numberOfLeadingZeros(Math.max(1, boundaries / BUCKET));
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
	public static long pack(long first, long last) {
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
	public boolean denies(long ip) {
		int h = (int) (ip >>> this.shift);
		IntBuffer index = this.index;
		int at = index.get(h);
		int end = index.get(h + 1);
		int key = (int) ip & 0xFFFF;
		ShortBuffer b = this.bounds;
		// A crowded bucket: halve it until a scan is cheaper
		// than mispredicted branches.
		while (end - at > LINEAR) {
			int mid = (at + end) >>> 1;
			if ((b.get(mid) & 0xFFFF) <= key) {
				at = mid + 1;
			}
			else {
				end = mid;
			}
		}
		// No early exit: a count without branches to mispredict.
		for (int i = at; i < end; i++) {
			at += ((b.get(i) & 0xFFFF) <= key) ? 1 : 0;
		}
		return (at & 1) == 1; // 'at' boundaries lie at or below ip
	}

	/** Rules read (before coalescing). */
	public long rules() {
		return this.header.rules();
	}

	public int intervals() {
		return this.header.intervals();
	}

	public long first(int interval) {
		return boundary(2 * interval);
	}

	public long last(int interval) {
		int end = 2 * interval + 1;
		return (end == this.bounds.limit()) ? 0xFFFFFFFFL : boundary(end) - 1;
	}

	/**
	 * The full value of boundary {@code i}: its bucket (from the index) and its stored
	 * low bits.
	 */
	private long boundary(int i) {
		int lo = 0;
		int hi = this.index.limit() - 1; // the bucket h with index[h] <= i < index[h + 1]
		while (hi - lo > 1) {
			int mid = (lo + hi) >>> 1;
			if (this.index.get(mid) <= i) {
				lo = mid;
			}
			else {
				hi = mid;
			}
		}
		return ((long) lo << this.shift) | ((this.bounds.get(i) & 0xFFFF) & ((1 << this.shift) - 1));
	}

	/** Index bits in use (the bucket is the top this-many address bits). */
	public int indexBits() {
		return 32 - this.shift;
	}

	public long skippedLines() {
		return this.header.skippedLines();
	}

	/** The first few skipped lines, each as "file:line: reason". */
	public List<String> skipped() {
		return this.header.skipped();
	}

	/** The compiled form, read-only (the lookup benchmark's memory floor reads it). */
	ByteBuffer data() {
		return this.data.asReadOnlyBuffer();
	}

	/** Bytes of the compiled form held in memory, off the Java heap. */
	public long memoryBytes() {
		return this.data.capacity();
	}

	/** The compiled file this list is mapped from, or null for a list built in memory. */
	public Path file() {
		return this.file;
	}

	/**
	 * True when this load compiled the text list, false when it reused its compiled form.
	 */
	public boolean compiled() {
		return this.compiled;
	}

	public long loadNanos() {
		return this.loadNanos;
	}

	DenyListFile.Header header() {
		return this.header;
	}

	@Override
	public String toString() {
		return String.format(
				"%,d rules -> %,d intervals, %,d bytes off the heap (%d-bit index), %,d bad lines skipped, "
						+ "%s in %d ms",
				rules(), intervals(), memoryBytes(), indexBits(), skippedLines(),
				(this.file == null) ? "built" : (this.compiled ? "compiled to " : "mapped from ") + this.file,
				this.loadNanos / 1_000_000);
	}

}
