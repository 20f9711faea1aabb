package dev.gatewaylab.denylist;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The merge of {@link SortedRuns}: reads every run of the temporary file through a small
 * buffer of its own, and the last chunk in memory, side by side (a binary heap on their
 * next keys), coalescing as it goes.
 */
final class RunMerger {

	private static final int READ_BUFFER = 1 << 15;

	private final FileChannel channel;

	private final Path file;

	/** Start offset and length of each run, in turn. */
	private final long[] runs;

	private final long[] last;

	private final int lastSize;

	RunMerger(FileChannel channel, Path file, long[] runs, long[] last, int lastSize) {
		this.channel = channel;
		this.file = file;
		this.runs = runs;
		this.last = last;
		this.lastSize = lastSize;
	}

	/** Hands out the coalesced intervals of all rules in address order. */
	void merge(SortedRuns.Sink sink) throws IOException {
		Cursor[] heap = new Cursor[this.runs.length / 2 + 1];
		int n = 0;
		for (int r = 0; r < this.runs.length / 2; r++) {
			Cursor run = new RunCursor(this.runs[2 * r], this.runs[2 * r + 1]);
			if (run.advance()) {
				heap[n++] = run;
			}
		}
		Cursor last = new ArrayCursor();
		if (last.advance()) {
			heap[n++] = last;
		}
		for (int i = n / 2 - 1; i >= 0; i--) {
			siftDown(heap, i, n);
		}
		boolean any = false;
		long first = 0;
		long end = 0;
		while (n > 0) {
			Cursor top = heap[0];
			long f = DenyList.first(top.head);
			long l = DenyList.last(top.head);
			if (any && f <= end + 1) {
				end = Math.max(end, l);
			}
			else {
				if (any) {
					sink.add(first, end);
				}
				first = f;
				end = l;
				any = true;
			}
			if (!top.advance()) {
				heap[0] = heap[--n];
			}
			siftDown(heap, 0, n);
		}
		if (any) {
			sink.add(first, end);
		}
	}

	private static void siftDown(Cursor[] heap, int i, int n) {
		Cursor moving = heap[i];
		while (2 * i + 1 < n) {
			int child = 2 * i + 1;
			if (child + 1 < n && heap[child + 1].head < heap[child].head) {
				child++;
			}
			if (heap[child].head >= moving.head) {
				break;
			}
			heap[i] = heap[child];
			i = child;
		}
		heap[i] = moving;
	}

	private abstract static class Cursor {

		long head;

		/** Moves to the next key; false at the end. */
		abstract boolean advance() throws IOException;

	}

	private final class RunCursor extends Cursor {

		private final ByteBuffer buffer = ByteBuffer.allocate(READ_BUFFER).order(ByteOrder.LITTLE_ENDIAN).flip();

		private long position;

		private long left;

		RunCursor(long start, long length) {
			this.position = start;
			this.left = length;
		}

		@Override
		boolean advance() throws IOException {
			if (this.left == 0) {
				return false;
			}
			if (!this.buffer.hasRemaining()) {
				this.buffer.clear().limit((int) Math.min(READ_BUFFER, 8 * this.left));
				while (this.buffer.hasRemaining()) {
					int n = RunMerger.this.channel.read(this.buffer, this.position);
					if (n < 0) {
						throw new IOException(RunMerger.this.file + ": ended early");
					}
					this.position += n;
				}
				this.buffer.flip();
			}
			this.head = this.buffer.getLong();
			this.left--;
			return true;
		}

	}

	private final class ArrayCursor extends Cursor {

		private int next;

		@Override
		boolean advance() {
			if (this.next == RunMerger.this.lastSize) {
				return false;
			}
			this.head = RunMerger.this.last[this.next++];
			return true;
		}

	}

}
