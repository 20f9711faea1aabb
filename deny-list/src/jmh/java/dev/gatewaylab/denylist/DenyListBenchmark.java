package dev.gatewaylab.denylist;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Lookup cost per call, SampleTime (so JMH reports percentiles), on lists written by
 * {@code ./lab deny-list generate}: {@code dir} holds deny-list.txt and client-ips.csv (relative to the working
 * directory, the repository root). The list is loaded as the gateway loads it: its compiled form, memory-mapped (compiled
 * first if missing), in a JVM with the gateway's default heap options. Denied rows of client-ips.csv are the hits, allowed rows the misses; 4096 of each,
 * visited in file order (random addresses, so every lookup walks a different path: no branch-predictor replay).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = { "-Xmx256m", "-Xms256m", "-XX:+UseParallelGC" })
public class DenyListBenchmark {

	private static final int MASK = 4095;

	private static final int CHAIN = 1024;

	@Param({ ".lab/deny-list/3m", ".lab/deny-list/30m" })
	public String dir;

	private DenyList list;

	private ByteBuffer data;

	private final long[] hits = new long[MASK + 1];

	private final long[] misses = new long[MASK + 1];

	private int next;

	private long chain;

	@Setup(Level.Trial)
	public void load() throws IOException {
		this.list = DenyListLoader.load(Path.of(this.dir, "deny-list.txt"), OnError.FAIL);
		this.data = this.list.data();
		int h = 0;
		int m = 0;
		for (String row : Files.readAllLines(Path.of(this.dir, "client-ips.csv"))) {
			String[] cells = row.split(",");
			long ip = Ipv4.parse(cells[0]);
			if (cells[1].equals("denied") && h <= MASK) {
				this.hits[h++] = ip;
			}
			else if (cells[1].equals("allowed") && m <= MASK) {
				this.misses[m++] = ip;
			}
		}
		if (h <= MASK || m <= MASK) {
			throw new IllegalStateException(this.dir + "/client-ips.csv needs 4096 denied and 4096 allowed rows");
		}
		System.out.printf("%n%s: %s (mapped %,d bytes)%n", this.dir, this.list, this.data.capacity());
	}

	/** The harness and timer alone: reads the next address like {@link #hit()}, looks nothing up. */
	@Benchmark
	public long timerFloor() {
		return this.hits[this.next++ & MASK];
	}

	/**
	 * The memory floor under any lookup of this list: one byte read from the list's compiled form at an offset drawn
	 * from the next address (a multiplicative hash, so the same spread over the whole mapping as the lookups, and the
	 * same number of distinct pages and lines per pass). No layout of a structure this size in memory mapped like
	 * this can answer a lookup that touches it for less.
	 */
	@Benchmark
	public byte touch() {
		long mixed = (this.hits[this.next++ & MASK] * 0x9E3779B97F4A7C15L) >>> 1;
		return this.data.get((int) (mixed % this.data.capacity()));
	}

	/**
	 * The memory's latency under this list: {@value #CHAIN} reads of the compiled form per call, each at an offset drawn
	 * from the value the previous one read (a pointer chase; the value is mixed in by a multiplication, so the chain
	 * cannot settle on one address), so no two reads overlap as {@link #touch()}'s may and the timer's own cost is
	 * spread over the chain; the mean per read. A lookup makes two such dependent reads (index
	 * entry, then bucket) when both miss the caches.
	 */
	@Benchmark
	@BenchmarkMode(Mode.AverageTime)
	@OperationsPerInvocation(CHAIN)
	public long chase() {
		long chain = this.chain;
		int size = this.data.capacity();
		for (int i = 0; i < CHAIN; i++) {
			chain = (chain + (this.data.get((int) ((chain >>> 1) % size)) | 1)) * 0x9E3779B97F4A7C15L + i;
		}
		this.chain = chain;
		return chain;
	}

	/**
	 * {@link #chase()} over a heap array of the same size instead of the mapping: with
	 * {@code -jvmArgsAppend -XX:+UseTransparentHugePages} the heap (and so the array) is on 2 MiB pages, which a file
	 * mapping does not get from Java; the difference is what the page walks cost.
	 */
	@Benchmark
	@BenchmarkMode(Mode.AverageTime)
	@OperationsPerInvocation(CHAIN)
	public long chaseHeap(HeapCopy copy) {
		long chain = this.chain;
		long[] heap = copy.array;
		for (int i = 0; i < CHAIN; i++) {
			chain = (chain + (heap[(int) ((chain >>> 1) % heap.length)] | 1)) * 0x9E3779B97F4A7C15L + i;
		}
		this.chain = chain;
		return chain;
	}

	@Benchmark
	public boolean hit() {
		return this.list.denies(this.hits[this.next++ & MASK]);
	}

	@Benchmark
	public boolean miss() {
		return this.list.denies(this.misses[this.next++ & MASK]);
	}

	/** A heap array of the mapping's size, for {@link #chaseHeap}; allocated only when that benchmark runs. */
	@State(Scope.Benchmark)
	public static class HeapCopy {

		long[] array;

		@Setup(Level.Trial)
		public void fill(DenyListBenchmark benchmark) {
			this.array = new long[benchmark.data.capacity() / Long.BYTES];
			for (int i = 0; i < this.array.length; i++) {
				this.array[i] = i;
			}
		}

	}

}
