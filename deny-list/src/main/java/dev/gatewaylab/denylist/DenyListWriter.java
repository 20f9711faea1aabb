package dev.gatewaylab.denylist;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;

/**
 * Writes the compiled form ({@link DenyListFile}) from coalesced intervals given in
 * address order, streaming: the index and the boundaries are each produced in order, so
 * each goes through a small buffer to its own part of the output; the header, with the
 * counts and checksums, goes last. Needs up front only what fixes where the boundaries
 * start: the header's size and the index bits.
 */
final class DenyListWriter {

	/** Where the bytes go: a file, or a buffer in memory. */
	interface Output {

		void write(ByteBuffer bytes, long position) throws IOException;

	}

	private static final int BUFFER = 1 << 16;

	private final Output out;

	private final int headerSize;

	private final int indexBits;

	private final int shift;

	private final ByteBuffer index = ByteBuffer.allocate(BUFFER).order(ByteOrder.LITTLE_ENDIAN);

	private final ByteBuffer bounds = ByteBuffer.allocate(BUFFER).order(ByteOrder.LITTLE_ENDIAN);

	private final CRC32C indexCrc = new CRC32C();

	private final CRC32C boundsCrc = new CRC32C();

	private long indexAt;

	private long boundsAt;

	/** Boundaries written. */
	private int written;

	/** The next bucket whose index entry is due. */
	private long bucket;

	DenyListWriter(Output out, int headerSize, int indexBits) {
		this.out = out;
		this.headerSize = headerSize;
		this.indexBits = indexBits;
		this.shift = 32 - indexBits;
		this.indexAt = headerSize;
		this.boundsAt = this.indexAt + 4L * ((1L << indexBits) + 1);
	}

	static Output into(ByteBuffer target) {
		return (bytes, position) -> target.put((int) position, bytes, bytes.position(), bytes.remaining());
	}

	static Output into(FileChannel channel) {
		return (bytes, position) -> {
			while (bytes.hasRemaining()) {
				position += channel.write(bytes, position);
			}
		};
	}

	/** The next interval: after the previous one and not adjacent to it. */
	void add(long first, long last) throws IOException {
		boundary(first);
		if (last != 0xFFFFFFFFL) {
			boundary(last + 1);
		}
	}

	private void boundary(long value) throws IOException {
		if (this.written == Integer.MAX_VALUE) {
			throw new IllegalStateException("more than " + Integer.MAX_VALUE + " boundaries");
		}
		for (long bucket = value >>> this.shift; this.bucket <= bucket; this.bucket++) {
			indexEntry();
		}
		if (!this.bounds.hasRemaining()) {
			this.boundsAt = flush(this.bounds, this.boundsCrc, this.boundsAt);
		}
		this.bounds.putShort((short) value);
		this.written++;
	}

	private void indexEntry() throws IOException {
		if (!this.index.hasRemaining()) {
			this.indexAt = flush(this.index, this.indexCrc, this.indexAt);
		}
		this.index.putInt(this.written);
	}

	private long flush(ByteBuffer buffer, CRC32C crc, long at) throws IOException {
		buffer.flip();
		crc.update(buffer.array(), 0, buffer.limit());
		int length = buffer.limit();
		this.out.write(buffer, at);
		buffer.clear();
		return at + length;
	}

	/** Boundaries written so far. */
	int boundaries() {
		return this.written;
	}

	/**
	 * Completes the index and writes the header, whose counts must match what was
	 * written.
	 */
	void finish(DenyListFile.Header header) throws IOException {
		if (header.boundaries() != this.written || header.indexBits() != this.indexBits
				|| header.size() != this.headerSize) {
			throw new IllegalStateException("the header does not describe what was written");
		}
		for (long end = 1L << this.indexBits; this.bucket <= end; this.bucket++) {
			indexEntry();
		}
		this.indexAt = flush(this.index, this.indexCrc, this.indexAt);
		this.boundsAt = flush(this.bounds, this.boundsCrc, this.boundsAt);
		this.out.write(DenyListFile.header(header, (int) this.indexCrc.getValue(), (int) this.boundsCrc.getValue()), 0);
	}

}
