package dev.gatewaylab.denylisttool;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;

import dev.gatewaylab.denylist.DenyList;
import dev.gatewaylab.denylisttool.DenyListTool.Options;
import dev.gatewaylab.denylisttool.DenyListTool.UsageException;

/**
 * {@code deny-list generate}: a realistic deny list and the client addresses a load test
 * needs. Rules: 90 % single addresses (/32, all even so no two are adjacent), 10 %
 * prefixes: /16–/31 with each length half as likely as the next longer one, plus at most
 * 24 short prefixes /8–/15. In random order, with overlaps (a single inside a prefix,
 * nested prefixes) as real lists have them. At 30 M rules about 4 % of the address space
 * is denied, so allowed addresses are easy to find. Deterministic for a seed.
 */
final class ListGenerator {

	private static final int MAX_RULES = 200_000_000;

	private final PrintStream out;

	ListGenerator(PrintStream out) {
		this.out = out;
	}

	int generate(Options options) throws IOException {
		long rules = 100_000;
		long seed = 1;
		long clients = 10_000;
		double deniedShare = 0.5;
		// deny-list.sh points this at the repository's .lab/deny-list
		// whatever the working directory.
		Path dir = Path.of(System.getProperty("gatewaylab.deny-list.out", ".lab/deny-list"));
		while (options.next()) {
			switch (options.option()) {
				case "--help" -> {
					this.out.print(DenyListTool.USAGE);
					return 0;
				}
				case "--rules" -> rules = options.number(1, MAX_RULES);
				case "--seed" -> seed = options.number(Long.MIN_VALUE, Long.MAX_VALUE);
				case "--clients" -> clients = options.number(0, 10_000_000);
				case "--denied-share" -> deniedShare = options.fraction();
				case "--out" -> dir = DenyListTool.path("--out", options.value());
				default -> throw new UsageException("unknown option '" + options.option() + "'");
			}
		}
		Files.createDirectories(dir);
		Path rulesFile = dir.resolve("deny-list.txt");
		Path clientsFile = dir.resolve("client-ips.csv");
		long start = System.nanoTime();
		SplittableRandom random = new SplittableRandom(seed);
		long[] keys = new long[(int) rules];
		int shortPrefixes = (int) Math.min(24, Math.max(rules / 10 > 0 ? 1 : 0, rules / 100_000));
		try (Lines file = new Lines(Files.newOutputStream(rulesFile))) {
			file.text("# deny list written by deny-list generate --rules " + rules + " --seed " + seed + "\n");
			for (int i = 0; i < rules; i++) {
				int length;
				if (i % 10 != 9) {
					length = 32;
				}
				else if (i / 10 < shortPrefixes) {
					length = 8 + random.nextInt(8);
				}
				else {
					// /31 half of the time, /30 a quarter, ... /16 rarely.
					length = Math.max(16, 31 - Long.numberOfTrailingZeros(random.nextLong() | (1L << 15)));
				}
				long size = 1L << (32 - length);
				long first = (length == 32) ? random.nextLong(1L << 31) << 1 : random.nextLong(1L << 32) & ~(size - 1);
				keys[i] = DenyList.pack(first, first + size - 1);
				file.address(first);
				if (length != 32) {
					file.text("/").number(length);
				}
				file.text("\n");
			}
		}
		DenyList list = DenyList.of(keys, keys.length);
		keys = null; // the list holds its own (off-heap) copy
		long denied = 0;
		try (Lines file = new Lines(Files.newOutputStream(clientsFile))) {
			file.text("clientIp,expected\n");
			for (long c = 0; c < clients; c++) {
				long ip;
				boolean deny = random.nextDouble() < deniedShare;
				if (deny) {
					int interval = random.nextInt(list.intervals());
					ip = random.nextLong(list.first(interval), list.last(interval) + 1);
				}
				else {
					// Loopback is a trusted proxy, never a client.
					do {
						ip = random.nextLong(1L << 32);
					}
					while (list.denies(ip) || (ip >>> 24) == 127);
				}
				denied += deny ? 1 : 0;
				file.address(ip).text(deny ? ",denied\n" : ",allowed\n");
			}
		}
		long covered = 0;
		for (int i = 0; i < list.intervals(); i++) {
			covered += list.last(i) - list.first(i) + 1;
		}
		this.out.printf(Locale.ROOT,
				"wrote %s: %,d rules (%,d intervals after coalescing, %.2f %% of IPv4 denied, %,d bytes)%n", rulesFile,
				rules, list.intervals(), 100.0 * covered / (1L << 32), Files.size(rulesFile));
		this.out.printf(Locale.ROOT, "wrote %s: %,d clients (%,d denied, %,d allowed) in %.1f s%n", clientsFile,
				clients, denied, clients - denied, (System.nanoTime() - start) / 1e9);
		return 0;
	}

	/** Buffered ASCII output without a String per line. */
	private static final class Lines implements AutoCloseable {

		private final OutputStream out;

		private final byte[] buffer = new byte[1 << 16];

		private int size;

		Lines(OutputStream out) {
			this.out = out;
		}

		Lines text(String text) throws IOException {
			for (int i = 0; i < text.length(); i++) {
				put((byte) text.charAt(i));
			}
			return this;
		}

		Lines address(long ip) throws IOException {
			number((int) (ip >>> 24)).put((byte) '.').number((int) (ip >>> 16) & 0xFF).put((byte) '.');
			return number((int) (ip >>> 8) & 0xFF).put((byte) '.').number((int) ip & 0xFF);
		}

		Lines number(int n) throws IOException {
			if (n >= 100) {
				put((byte) ('0' + n / 100));
			}
			if (n >= 10) {
				put((byte) ('0' + n / 10 % 10));
			}
			return put((byte) ('0' + n % 10));
		}

		private Lines put(byte b) throws IOException {
			if (this.size == this.buffer.length) {
				this.out.write(this.buffer, 0, this.size);
				this.size = 0;
			}
			this.buffer[this.size++] = b;
			return this;
		}

		@Override
		public void close() throws IOException {
			this.out.write(this.buffer, 0, this.size);
			this.out.close();
		}

	}

}
