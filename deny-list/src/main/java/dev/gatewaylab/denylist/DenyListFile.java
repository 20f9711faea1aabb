package dev.gatewaylab.denylist;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.ShortBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The compiled form of a deny list, a file the gateway maps into memory
 * (docs/deny-list.md, "Compiled form"). Every number is little-endian.
 *
 * <pre>
 * offset size
 *  0      8   magic "DENYLIST" (ASCII)
 *  8      4   format version (1)
 * 12      4   header size in bytes (a multiple of 64): where the index starts
 * 16      8   size of the text list it was compiled from, in bytes
 * 24      4   CRC-32C of that text list
 * 28      4   reserved (0)
 * 32      8   rules read
 * 40      8   bad lines skipped (on-error=skip)
 * 48      4   intervals after coalescing
 * 52      4   boundaries (2 per interval, one less if the last interval ends at 255.255.255.255)
 * 56      4   index bits (16 to 24)
 * 60      4   skipped-line samples that follow (0 to 5)
 * 64      4   CRC-32C of the index
 * 68      4   CRC-32C of the boundaries
 * 72      4   CRC-32C of the header, with these 4 bytes counted as 0
 * 76      4   reserved (0)
 * 80          samples: each a 2-byte length and that many bytes of UTF-8; zero padding to the header size
 * header      index: 2^bits + 1 ints, index[h] = boundaries below bucket h
 * + index     boundaries: the low 16 bits of each, in address order
 * </pre>
 *
 * Opening checks all of it (magic, version, sizes, checksums, an ordered index), so a
 * truncated, damaged or foreign file is refused, never half-used.
 */
final class DenyListFile {

	static final int VERSION = 1;

	static final int MAX_SAMPLES = 5;

	private static final byte[] MAGIC = "DENYLIST".getBytes(StandardCharsets.US_ASCII);

	private static final int FIXED = 80;

	private static final int MAX_SAMPLE_BYTES = 512;

	private static final int HEADER_CRC_AT = 72;

	private DenyListFile() {
	}

	/** What the header says (its checksums aside). */
	record Header(long sourceSize, int sourceCrc, long rules, long skippedLines, List<String> skipped, int intervals,
			int boundaries, int indexBits) {

		/**
		 * @param indexBits the index size; {@code 0} = the best for the boundary count
		 * ({@link DenyList#bits})
		 */
		static Header of(long sourceSize, int sourceCrc, long rules, long skippedLines, List<String> skipped,
				int intervals, boolean endsAtTop, int indexBits) {
			// The address after 255.255.255.255 is not stored: an odd count
			// up to the end then means "denied to the end".
			int boundaries = (int) Math.min(Integer.MAX_VALUE, 2L * intervals - (endsAtTop ? 1 : 0));
			return new Header(sourceSize, sourceCrc, rules, skippedLines, samples(skipped), intervals, boundaries,
					(indexBits == 0) ? DenyList.bits(boundaries) : indexBits);
		}

		/** Header bytes, samples included, rounded up to 64. */
		int size() {
			return headerSize(this.skipped);
		}

		long indexBytes() {
			return 4L * ((1L << this.indexBits) + 1);
		}

	}

	/** The samples a header keeps: the first {@link #MAX_SAMPLES}. */
	static List<String> samples(List<String> skipped) {
		return List.copyOf(skipped.subList(0, Math.min(MAX_SAMPLES, skipped.size())));
	}

	/** Header bytes for these samples, rounded up to 64. */
	static int headerSize(List<String> skipped) {
		int size = FIXED;
		for (String sample : samples(skipped)) {
			size += 2 + sampleBytes(sample).length;
		}
		return (size + 63) & ~63;
	}

	/** The whole file's size for this header. */
	static long size(Header header) {
		return header.size() + header.indexBytes() + 2L * header.boundaries();
	}

	private static byte[] sampleBytes(String sample) {
		byte[] bytes = sample.getBytes(StandardCharsets.UTF_8);
		return (bytes.length <= MAX_SAMPLE_BYTES) ? bytes : java.util.Arrays.copyOf(bytes, MAX_SAMPLE_BYTES);
	}

	/** The header's bytes, checksums filled in. */
	static ByteBuffer header(Header header, int indexCrc, int boundsCrc) {
		ByteBuffer out = ByteBuffer.allocate(header.size()).order(ByteOrder.LITTLE_ENDIAN);
		out.put(MAGIC).putInt(VERSION).putInt(header.size()).putLong(header.sourceSize()).putInt(header.sourceCrc());
		out.putInt(0).putLong(header.rules()).putLong(header.skippedLines()).putInt(header.intervals());
		out.putInt(header.boundaries()).putInt(header.indexBits()).putInt(header.skipped().size());
		out.putInt(indexCrc).putInt(boundsCrc).putInt(0).putInt(0);
		for (String sample : header.skipped()) {
			byte[] bytes = sampleBytes(sample);
			out.putShort((short) bytes.length).put(bytes);
		}
		out.putInt(HEADER_CRC_AT, crc(out.array(), out.capacity()));
		return out.position(0);
	}

	private static int crc(byte[] header, int size) {
		CRC32C crc = new CRC32C();
		crc.update(header, 0, HEADER_CRC_AT);
		crc.update(new byte[4]);
		crc.update(header, HEADER_CRC_AT + 4, size - HEADER_CRC_AT - 4);
		return (int) crc.getValue();
	}

	/** Maps a compiled file read-only and checks it. */
	static DenyList map(Path file, long startNanos, boolean compiled) throws IOException, InvalidException {
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
			long size = channel.size();
			if (size > Integer.MAX_VALUE) {
				throw new InvalidException(String.format("%,d bytes: over the 2 GiB a mapping can hold", size));
			}
			ByteBuffer data = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
			return open(data, file, startNanos, compiled);
		}
	}

	/** Checks the compiled form in {@code data} and reads the list in place. */
	static DenyList open(ByteBuffer data, Path file, long startNanos, boolean compiled) throws InvalidException {
		data = data.duplicate().order(ByteOrder.LITTLE_ENDIAN).clear();
		Header header = readHeader(data);
		int at = header.size();
		IntBuffer index = data.slice(at, (int) header.indexBytes()).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
		at += (int) header.indexBytes();
		ShortBuffer bounds = data.slice(at, 2 * header.boundaries()).order(ByteOrder.LITTLE_ENDIAN).asShortBuffer();
		if (crc(data, header.size(), (int) header.indexBytes()) != data.getInt(64)
				|| crc(data, at, 2 * header.boundaries()) != data.getInt(68)) {
			throw new InvalidException("damaged: the index or the boundaries do not match their checksum");
		}
		int previous = 0;
		for (int h = 0; h < index.limit(); h++) {
			int value = index.get(h);
			if (value < previous || value > header.boundaries()) {
				throw new InvalidException("damaged: the index is out of order at bucket " + h);
			}
			previous = value;
		}
		if (index.get(0) != 0 || previous != header.boundaries()) {
			throw new InvalidException("damaged: the index does not span the boundaries");
		}
		return new DenyList(data, index, bounds, header, file, System.nanoTime() - startNanos, compiled);
	}

	private static int crc(ByteBuffer data, int at, int length) {
		CRC32C crc = new CRC32C();
		crc.update(data.slice(at, length));
		return (int) crc.getValue();
	}

	/**
	 * Reads and checks the header: magic, version, header checksum, counts and the file
	 * size.
	 */
	static Header readHeader(ByteBuffer data) throws InvalidException {
		int capacity = data.capacity();
		if (capacity < FIXED) {
			throw new InvalidException(capacity + " bytes: shorter than a header (truncated?)");
		}
		for (int i = 0; i < MAGIC.length; i++) {
			if (data.get(i) != MAGIC[i]) {
				throw new InvalidException("not a compiled deny list (no DENYLIST magic)");
			}
		}
		int version = data.getInt(8);
		if (version != VERSION) {
			throw new InvalidException("format version " + version + ", this gateway reads version " + VERSION);
		}
		int headerSize = data.getInt(12);
		if (headerSize < FIXED || headerSize > capacity || headerSize % 64 != 0) {
			throw new InvalidException("bad header size " + headerSize + " (truncated?)");
		}
		byte[] bytes = new byte[headerSize];
		data.get(0, bytes);
		if (crc(bytes, headerSize) != data.getInt(HEADER_CRC_AT)) {
			throw new InvalidException("damaged: the header does not match its checksum");
		}
		int intervals = data.getInt(48);
		int boundaries = data.getInt(52);
		int bits = data.getInt(56);
		int samples = data.getInt(60);
		if (intervals < 0 || (boundaries != 2L * intervals && boundaries != 2L * intervals - 1)
				|| (intervals == 0 && boundaries != 0) || bits < DenyList.MIN_BITS || bits > DenyList.MAX_BITS
				|| samples < 0 || samples > MAX_SAMPLES) {
			throw new InvalidException("damaged: inconsistent counts in the header");
		}
		List<String> skipped = new ArrayList<>();
		int at = FIXED;
		for (int i = 0; i < samples; i++) {
			int length = data.getShort(at) & 0xFFFF;
			if (at + 2 + length > headerSize) {
				throw new InvalidException("damaged: a skipped-line sample runs past the header");
			}
			skipped.add(new String(bytes, at + 2, length, StandardCharsets.UTF_8));
			at += 2 + length;
		}
		Header header = new Header(data.getLong(16), data.getInt(24), data.getLong(32), data.getLong(40),
				List.copyOf(skipped), intervals, boundaries, bits);
		if (header.size() != headerSize || size(header) != capacity) {
			throw new InvalidException(String.format("%,d bytes where the header says %,d (truncated?)", capacity,
					(header.size() != headerSize) ? headerSize : size(header)));
		}
		return header;
	}

	/** The compiled file is not one this gateway can use (it is then compiled anew). */
	static final class InvalidException extends Exception {

		InvalidException(String message) {
			super(message);
		}

	}

}
