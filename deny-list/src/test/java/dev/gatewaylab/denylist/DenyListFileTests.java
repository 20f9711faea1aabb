package dev.gatewaylab.denylist;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** The compiled form: what is written is what is read, and a bad file is refused. */
class DenyListFileTests {

	@TempDir
	Path dir;

	/** Random rules (singles and prefixes, overlapping) as text, and as packed keys. */
	static long[] writeRules(Path file, int n, long seed) throws IOException {
		SplittableRandom random = new SplittableRandom(seed);
		long[] keys = new long[n];
		StringBuilder text = new StringBuilder("# test rules\n");
		for (int i = 0; i < n; i++) {
			int length = (i % 5 == 0) ? 32 - random.nextInt(1, 12) : 32;
			long size = 1L << (32 - length);
			long first = random.nextLong(1L << 32) & ~(size - 1);
			keys[i] = DenyList.pack(first, first + size - 1);
			text.append(Ipv4.format(first)).append((length < 32) ? "/" + length : "").append('\n');
		}
		Files.writeString(file, text);
		return keys;
	}

	static void assertSameList(DenyList actual, DenyList expected, long seed) {
		assertThat(actual.intervals()).isEqualTo(expected.intervals());
		assertThat(actual.rules()).isEqualTo(expected.rules());
		for (int i = 0; i < expected.intervals(); i++) {
			if (actual.first(i) != expected.first(i) || actual.last(i) != expected.last(i)) {
				throw new AssertionError("interval " + i + " differs");
			}
		}
		SplittableRandom random = new SplittableRandom(seed);
		for (int t = 0; t < 200_000; t++) {
			long ip = random.nextLong(1L << 32);
			if (actual.denies(ip) != expected.denies(ip)) {
				throw new AssertionError(Ipv4.format(ip));
			}
		}
	}

	@Test
	void aCompiledListReadsBackAsTheListItWasBuiltFrom() throws IOException {
		Path text = this.dir.resolve("rules.txt");
		long[] keys = writeRules(text, 50_000, 1);
		// Runs of 1,000 rules: the external sort merges 50 of them.
		DenyList compiled = DenyListLoader.compile(text, OnError.FAIL, this.dir.resolve("rules.txt.compiled"),
				System.nanoTime(), 1000);
		assertThat(compiled.compiled()).isTrue();
		assertThat(compiled.file()).isEqualTo(this.dir.resolve("rules.txt.compiled"));
		assertSameList(compiled, DenyList.of(keys.clone(), keys.length), 2);
		DenyListFile.Header header = compiled.header();
		assertThat(header.sourceSize()).isEqualTo(Files.size(text));
		assertThat(header.sourceCrc()).isEqualTo(DenyListLoader.crc(text));
		assertThat(compiled.memoryBytes()).isEqualTo(Files.size(this.dir.resolve("rules.txt.compiled")));
		assertThat(this.dir.toFile().list()).as("no temporary files left")
			.containsOnly("rules.txt", "rules.txt.compiled");
	}

	@Test
	void runsThatTouchAcrossChunksCoalesceAndTheTopAddressIsKept() throws IOException {
		Path text = Files.writeString(this.dir.resolve("rules.txt"),
				"10.0.0.2\n10.0.0.0\n10.0.0.1\n255.255.255.255\n10.0.0.3\n0.0.0.0\n255.255.255.254/31\n");
		DenyList list = DenyListLoader.compile(text, OnError.FAIL, this.dir.resolve("c"), System.nanoTime(), 2);
		assertThat(DenyListTests.intervals(list))
			.isEqualTo("0.0.0.0-0.0.0.0 10.0.0.0-10.0.0.3 255.255.255.254-255.255.255.255");
		assertThat(list.denies(0xFFFFFFFFL)).isTrue();
		assertThat(list.denies(Ipv4.parse("10.0.0.4"))).isFalse();
		assertThat(list.rules()).isEqualTo(7);
	}

	@Test
	void skippedLineSamplesTravelInTheHeader() throws IOException {
		Path text = Files.writeString(this.dir.resolve("rules.txt"), "1.2.3.4\nbad\n::1\nnöpe\n");
		DenyList list = DenyListLoader.compile(text, OnError.SKIP, this.dir.resolve("rules.txt.compiled"),
				System.nanoTime());
		DenyList read = DenyListLoader.load(text, OnError.SKIP, this.dir, (note) -> {
		});
		assertThat(read.compiled()).isFalse();
		assertThat(read.skippedLines()).isEqualTo(3);
		assertThat(read.skipped()).isEqualTo(list.skipped()).hasSize(3);
		assertThat(read.skipped().get(2)).contains(":4: not an IPv4 address");
	}

	byte[] compiledBytes() throws IOException {
		Path text = this.dir.resolve("rules.txt");
		writeRules(text, 2000, 3);
		DenyListLoader.compile(text, OnError.FAIL, this.dir.resolve("good"), System.nanoTime());
		return Files.readAllBytes(this.dir.resolve("good"));
	}

	String refusal(byte[] bytes) {
		ByteBuffer data = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
		return org.assertj.core.api.Assertions
			.catchThrowableOfType(() -> DenyListFile.open(data, null, 0, false), DenyListFile.InvalidException.class)
			.getMessage();
	}

	@Test
	void aTruncatedDamagedOrForeignFileIsRefusedSayingWhy() throws Exception {
		byte[] good = compiledBytes();
		ByteBuffer data = ByteBuffer.allocateDirect(good.length).put(good).flip();
		assertThat(DenyListFile.open(data, null, 0, false).intervals()).isPositive();

		assertThat(refusal(new byte[0])).contains("shorter than a header");
		assertThat(refusal(Arrays.copyOf(good, 100))).contains("truncated");
		assertThat(refusal(Arrays.copyOf(good, good.length - 2))).contains("truncated");
		assertThat(refusal(Arrays.copyOf(good, good.length + 64))).contains("where the header says");
		assertThat(refusal("# a text deny list, not compiled\n10.0.0.0/8\n1.2.3.4\n".repeat(4).getBytes()))
			.contains("not a compiled deny list");

		byte[] version = good.clone();
		ByteBuffer.wrap(version).order(ByteOrder.LITTLE_ENDIAN).putInt(8, 2);
		assertThat(refusal(version)).isEqualTo("format version 2, this gateway reads version 1");

		byte[] header = good.clone();
		header[33] ^= 1; // the rule count
		assertThat(refusal(header)).contains("the header does not match its checksum");

		byte[] body = good.clone();
		body[body.length - 1] ^= 1; // the last boundary
		assertThat(refusal(body)).contains("damaged: the index or the boundaries");
	}

	@Test
	void mappingAFileChecksItToo() throws IOException {
		byte[] good = compiledBytes();
		Path cut = Files.write(this.dir.resolve("cut"), Arrays.copyOf(good, good.length / 2));
		assertThatExceptionOfType(DenyListFile.InvalidException.class).isThrownBy(() -> DenyListFile.map(cut, 0, false))
			.withMessageContaining("truncated");
	}

}
