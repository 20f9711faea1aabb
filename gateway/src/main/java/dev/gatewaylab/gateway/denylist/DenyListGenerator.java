package dev.gatewaylab.gateway.denylist;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;

import dev.gatewaylab.gateway.clientip.Ipv4;
import dev.gatewaylab.gateway.denylist.DenyListLoader.OnError;

/**
 * Command line, plain Java (no Spring context): writes a realistic deny list and the
 * client addresses a load test needs, or loads a list and reports its figures.
 *
 * <pre>
 * generate [--rules N] [--seed S] [--out DIR] [--clients N] [--denied-share F]
 * load FILE [--on-error fail|skip]
 * </pre>
 *
 * Rules: 90 % single addresses (/32, all even so no two are adjacent), 10 % prefixes:
 * /16–/31 with each length half as likely as the next longer one, plus at most 24 short
 * prefixes /8–/15. In random order, with overlaps (a single inside a prefix, nested
 * prefixes) as real lists have them. At 30 M rules about 4 % of the address space is
 * denied, so allowed addresses are easy to find. Deterministic for a seed.
 */
public final class DenyListGenerator {

	static final String USAGE = """
			Usage:
			  deny-list generate [--rules N] [--seed S] [--out DIR] [--clients N] [--denied-share F]
			      Writes DIR/deny-list.txt (N rules, default 100000) and DIR/client-ips.csv (N clients, default 10000,
			      columns clientIp,expected with expected = denied|allowed; F of them denied, default 0.5).
			      DIR defaults to .lab/deny-list. The same seed (default 1) always writes the same files.
			  deny-list load FILE [--on-error fail|skip]
			      Loads FILE as the gateway does and prints rules, intervals, bytes per rule, load time and heap used.
			  deny-list --help
			""";

	private static final int MAX_RULES = 200_000_000;

	private final PrintStream out;

	private final PrintStream err;

	DenyListGenerator(PrintStream out, PrintStream err) {
		this.out = out;
		this.err = err;
	}

	public static void main(String[] args) {
		System.exit(new DenyListGenerator(System.out, System.err).run(args));
	}

	/**
	 * @return the exit code: 0 done, 1 failed while working, 2 bad command line
	 */
	int run(String[] args) {
		try {
			if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
				this.out.print(USAGE);
				return (args.length == 0) ? 2 : 0;
			}
			return switch (args[0]) {
				case "generate" -> generate(args);
				case "load" -> load(args);
				default -> throw new UsageException("unknown command '" + args[0] + "': use generate or load");
			};
		}
		catch (UsageException ex) {
			this.err.println("deny-list: " + ex.getMessage() + " (deny-list --help shows the options)");
			return 2;
		}
		catch (DenyListException ex) {
			this.err.println("deny-list: " + ex.getMessage());
			return 1;
		}
		catch (IOException ex) {
			this.err.println("deny-list: " + ex);
			return 1;
		}
		catch (OutOfMemoryError ex) {
			this.err.printf(Locale.ROOT,
					"deny-list: out of heap (max %,d MB) — a list needs about 8 bytes per rule "
							+ "while it loads (the parse array) plus ~5 bytes per rule kept: raise the heap, e.g. "
							+ "DENY_LIST_JAVA_OPTS=-Xmx1g for 30 M rules%n",
					Runtime.getRuntime().maxMemory() >> 20);
			return 1;
		}
	}

	private int generate(String[] args) throws IOException {
		long rules = 100_000;
		long seed = 1;
		long clients = 10_000;
		double deniedShare = 0.5;
		// gateway/deny-list.sh points this at the repository's .lab/deny-list whatever
		// the working directory.
		Path dir = Path.of(System.getProperty("gatewaylab.deny-list.out", ".lab/deny-list"));
		for (int i = 1; i < args.length; i++) {
			String option = args[i];
			if (option.equals("--help")) {
				this.out.print(USAGE);
				return 0;
			}
			String value = value(args, i++);
			switch (option) {
				case "--rules" -> rules = number(option, value, 1, MAX_RULES);
				case "--seed" -> seed = number(option, value, Long.MIN_VALUE, Long.MAX_VALUE);
				case "--clients" -> clients = number(option, value, 0, 10_000_000);
				case "--denied-share" -> deniedShare = fraction(option, value);
				case "--out" -> dir = path(option, value);
				default -> throw new UsageException("unknown option '" + option + "'");
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
			file.text("# deny list written by DenyListGenerator --rules " + rules + " --seed " + seed + "\n");
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
					do {
						ip = random.nextLong(1L << 32);
					}
					while (list.denies(ip) || (ip >>> 24) == 127); // loopback is a
																	// trusted proxy,
																	// never a client
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

	private int load(String[] args) throws IOException {
		if (args.length < 2 || args[1].startsWith("--")) {
			throw new UsageException("load needs a FILE, e.g. load .lab/deny-list/deny-list.txt");
		}
		Path file = path("FILE", args[1]);
		OnError onError = OnError.FAIL;
		for (int i = 2; i < args.length; i++) {
			String option = args[i];
			String value = value(args, i++);
			if (!option.equals("--on-error")) {
				throw new UsageException("unknown option '" + option + "'");
			}
			try {
				onError = OnError.valueOf(value.toUpperCase(Locale.ROOT));
			}
			catch (IllegalArgumentException ex) {
				throw new UsageException("--on-error: '" + value + "' is neither fail nor skip");
			}
		}
		Runtime runtime = Runtime.getRuntime();
		DenyList list = DenyListLoader.load(file, onError);
		System.gc();
		long heapUsed = runtime.totalMemory() - runtime.freeMemory();
		this.out.printf(Locale.ROOT,
				"loaded %s in %.2f s: %,d rules -> %,d intervals, %,d bytes = %.2f bytes/rule "
						+ "(%.2f bytes/interval), %,d bad lines skipped; heap used after GC %,d MB of max %,d MB%n",
				file, list.loadNanos() / 1e9, list.rules(), list.intervals(), list.memoryBytes(),
				(double) list.memoryBytes() / Math.max(1, list.rules()),
				(double) list.memoryBytes() / Math.max(1, list.intervals()), list.skippedLines(), heapUsed >> 20,
				runtime.maxMemory() >> 20);
		for (String line : list.skipped()) {
			this.out.println("skipped " + line);
		}
		return 0;
	}

	private static String value(String[] args, int i) {
		if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
			throw new UsageException(args[i] + " needs a value, e.g. " + args[i] + " " + example(args[i]));
		}
		return args[i + 1];
	}

	private static String example(String option) {
		return switch (option) {
			case "--rules" -> "3000000";
			case "--seed" -> "42";
			case "--out" -> ".lab/deny-list";
			case "--clients" -> "10000";
			case "--denied-share" -> "0.5";
			case "--on-error" -> "skip";
			default -> "VALUE";
		};
	}

	private static long number(String option, String value, long min, long max) {
		long n;
		try {
			n = Long.parseLong(value.replace("_", ""));
		}
		catch (NumberFormatException ex) {
			throw new UsageException(
					option + ": '" + value + "' is not a whole number, e.g. " + option + " " + example(option));
		}
		if (n < min || n > max) {
			throw new UsageException(
					String.format(Locale.ROOT, "%s: %,d is out of range: use %,d to %,d", option, n, min, max));
		}
		return n;
	}

	private static double fraction(String option, String value) {
		try {
			double f = Double.parseDouble(value);
			if (f >= 0 && f <= 1) {
				return f;
			}
		}
		catch (NumberFormatException ex) {
			// reported below
		}
		throw new UsageException(option + ": '" + value + "' is not a number from 0 to 1, e.g. " + option + " 0.5");
	}

	private static Path path(String option, String value) {
		try {
			return Path.of(value);
		}
		catch (InvalidPathException ex) {
			throw new UsageException(option + ": '" + value + "' is not a valid path");
		}
	}

	static final class UsageException extends RuntimeException {

		UsageException(String message) {
			super(message);
		}

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
