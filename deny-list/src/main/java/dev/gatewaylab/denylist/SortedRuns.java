package dev.gatewaylab.denylist;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * An external merge sort of packed rules ({@link DenyList#pack}) with little heap: rules
 * are gathered in a chunk of at most {@code chunkSize}; a full chunk is sorted, coalesced
 * and appended to a temporary file as one run; {@link #merge} then reads the runs (and
 * the last chunk, kept in memory) side by side and hands out the coalesced intervals in
 * address order. The heap holds one chunk and a small read buffer per run, whatever the
 * list's size; the temporary file needs 8 bytes per rule at most and is deleted on
 * {@link #close}.
 */
final class SortedRuns implements Closeable {

	/** Rules sorted at a time: 8 MiB of heap. */
	static final int CHUNK = 1 << 20;

	/** Receives coalesced intervals in address order. */
	interface Sink {

		void add(long first, long last) throws IOException;

	}

	private final Path dir;

	private final int chunkSize;

	private long[] chunk = new long[1024];

	private int size;

	/** The other chunk, free again once its run is written. */
	private long[] spare;

	/**
	 * Where {@link #sortByFirst} moves keys between passes; one at a time sorts (the
	 * sorter thread, then {@link #finish} after it).
	 */
	private long[] scratch;

	/** Sorts and writes full chunks while the next one fills. */
	private ExecutorService sorter;

	private Future<?> pending;

	/** Intervals in the runs, each run coalesced on its own. */
	private long upperBound;

	private Path spill;

	private FileChannel channel;

	private long[] runs = new long[32]; // start offset and length of each run, in turn

	private int runCount;

	private final ByteBuffer io = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);

	/**
	 * @param dir where the temporary file goes (created only when the rules outgrow one
	 * chunk)
	 */
	SortedRuns(Path dir, int chunkSize) {
		this.dir = dir;
		this.chunkSize = chunkSize;
	}

	/**
	 * Adds one rule; a full chunk is written out as a run ({@link UncheckedIOException}
	 * when that fails).
	 */
	void add(long key) {
		if (this.size == this.chunk.length) {
			if (this.chunk.length < this.chunkSize) {
				this.chunk = Arrays.copyOf(this.chunk, Math.min(this.chunkSize, 2 * this.chunk.length));
			}
			else {
				handOff();
			}
		}
		this.chunk[this.size++] = key;
	}

	/** Gives the full chunk to the sorter thread and goes on with the spare one. */
	private void handOff() {
		awaitPending();
		long[] full = this.chunk;
		int count = this.size;
		this.chunk = (this.spare != null) ? this.spare : new long[this.chunkSize];
		this.size = 0;
		if (this.sorter == null) {
			this.sorter = Executors.newSingleThreadExecutor((task) -> {
				Thread thread = new Thread(task, "deny-list-sort");
				thread.setDaemon(true);
				return thread;
			});
		}
		this.pending = this.sorter.submit(() -> {
			spill(full, count);
			this.spare = full;
			return null;
		});
	}

	/** Waits for the run being written; its failure is this call's. */
	private void awaitPending() {
		if (this.pending == null) {
			return;
		}
		try {
			this.pending.get();
			this.pending = null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new UncheckedIOException(new InterruptedIOException("interrupted while sorting"));
		}
		catch (ExecutionException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof IOException io) {
				throw new UncheckedIOException(io);
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw (RuntimeException) cause;
		}
	}

	private void spill(long[] keys, int count) throws IOException {
		sortByFirst(keys, count, scratch(count));
		int n = DenyList.coalesce(keys, count);
		if (this.channel == null) {
			this.spill = Files.createTempFile(this.dir, ".deny-list-", ".runs");
			this.channel = FileChannel.open(this.spill, StandardOpenOption.READ, StandardOpenOption.WRITE);
		}
		long start = this.channel.size();
		long at = start;
		for (int i = 0; i < n; i++) {
			if (!this.io.hasRemaining()) {
				at = write(at);
			}
			this.io.putLong(keys[i]);
		}
		write(at);
		if (this.runCount * 2 == this.runs.length) {
			this.runs = Arrays.copyOf(this.runs, 2 * this.runs.length);
		}
		this.runs[2 * this.runCount] = start;
		this.runs[2 * this.runCount + 1] = n;
		this.runCount++;
		this.upperBound += n;
	}

	private long write(long at) throws IOException {
		this.io.flip();
		while (this.io.hasRemaining()) {
			at += this.channel.write(this.io, at);
		}
		this.io.clear();
		return at;
	}

	private long[] scratch(int count) {
		if (this.scratch == null || this.scratch.length < count) {
			this.scratch = new long[Math.max(count, Math.min(this.chunkSize, 2 * count))];
		}
		return this.scratch;
	}

	/**
	 * Sorts packed rules ({@link DenyList#pack}) by their first address, all that
	 * {@link DenyList#coalesce} needs (rules with the same first address may stay in any
	 * order: coalescing keeps the farthest last address): a least-significant-digit radix
	 * sort, four stable passes over the address's bytes through {@code scratch}, a few
	 * times faster than a comparison sort of the whole {@code long} at a chunk's million
	 * rules. A pass whose byte is the same in every rule is skipped.
	 */
	static void sortByFirst(long[] keys, int count, long[] scratch) {
		int[][] counts = new int[4][257];
		for (int i = 0; i < count; i++) {
			int first = (int) (keys[i] >>> 32) ^ 0x80000000;
			counts[0][(first & 0xFF) + 1]++;
			counts[1][((first >>> 8) & 0xFF) + 1]++;
			counts[2][((first >>> 16) & 0xFF) + 1]++;
			counts[3][(first >>> 24) + 1]++;
		}
		long[] from = keys;
		long[] to = scratch;
		for (int pass = 0; pass < 4; pass++) {
			int[] starts = counts[pass];
			if (count == 0 || starts[digit(from[0], pass) + 1] == count) {
				continue; // one value of this byte: the pass would not move anything
			}
			for (int d = 0; d < 256; d++) {
				starts[d + 1] += starts[d];
			}
			for (int i = 0; i < count; i++) {
				long key = from[i];
				to[starts[digit(key, pass)]++] = key;
			}
			long[] swap = from;
			from = to;
			to = swap;
		}
		if (from != keys) {
			System.arraycopy(from, 0, keys, 0, count);
		}
	}

	/** Byte {@code pass} (0 = lowest) of the key's first address. */
	private static int digit(long key, int pass) {
		return (((int) (key >>> 32) ^ 0x80000000) >>> (8 * pass)) & 0xFF;
	}

	/** Ends the input: the last chunk is sorted and kept in memory. */
	void finish() {
		awaitPending();
		sortByFirst(this.chunk, this.size, scratch(this.size));
		this.size = DenyList.coalesce(this.chunk, this.size);
		this.upperBound += this.size;
		this.spare = null;
	}

	/**
	 * At least as many as the intervals {@link #merge} hands out (after {@link #finish}).
	 */
	long upperBound() {
		return this.upperBound;
	}

	/**
	 * Hands out the coalesced intervals of all rules in address order; may be repeated.
	 */
	void merge(Sink sink) throws IOException {
		new RunMerger(this.channel, this.spill, Arrays.copyOf(this.runs, 2 * this.runCount), this.chunk, this.size)
			.merge(sink);
	}

	@Override
	public void close() throws IOException {
		this.chunk = null;
		this.spare = null;
		this.scratch = null;
		if (this.sorter != null) {
			this.sorter.shutdownNow();
			try {
				// The run file is closed next.
				this.sorter.awaitTermination(1, TimeUnit.MINUTES);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		if (this.channel != null) {
			this.channel.close();
			Files.deleteIfExists(this.spill);
		}
	}

}
