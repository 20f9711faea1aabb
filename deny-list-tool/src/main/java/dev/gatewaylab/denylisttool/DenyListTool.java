package dev.gatewaylab.denylisttool;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;

import dev.gatewaylab.denylist.DenyList;
import dev.gatewaylab.denylist.DenyListException;
import dev.gatewaylab.denylist.DenyListLoader;
import dev.gatewaylab.denylist.OnError;

/**
 * The deny-list command line ({@code ./lab deny-list}), plain Java with no Spring context
 * and outside the gateway's jar: writes a realistic deny list and the client addresses a
 * load test needs ({@link ListGenerator}), compiles a list into the form the gateway
 * maps, or loads one as the gateway does and reports its figures.
 */
public final class DenyListTool {

	static final String USAGE = """
			Usage:
			  deny-list generate [--rules N] [--seed S] [--out DIR] [--clients N] [--denied-share F]
			      Writes DIR/deny-list.txt (N rules, default 100000) and DIR/client-ips.csv (N clients, default 10000,
			      columns clientIp,expected with expected = denied|allowed; F of them denied, default 0.5).
			      DIR defaults to .lab/deny-list. The same seed (default 1) always writes the same files.
			  deny-list compile FILE [--on-error fail|skip] [--compiled-dir DIR]
			      Compiles FILE into FILE.compiled (or DIR/<name>.compiled), the form the gateway maps into memory.
			  deny-list load FILE [--on-error fail|skip] [--compiled-dir DIR]
			      Loads FILE as the gateway does (its compiled form, compiled first when missing or stale) and prints
			      rules, intervals, bytes, load time and the heap used.
			  deny-list --help
			""";

	private final PrintStream out;

	private final PrintStream err;

	DenyListTool(PrintStream out, PrintStream err) {
		this.out = out;
		this.err = err;
	}

	public static void main(String[] args) {
		System.exit(new DenyListTool(System.out, System.err).run(args));
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
				case "generate" -> new ListGenerator(this.out).generate(new Options(args, 1));
				case "load", "compile" -> load(args);
				default -> throw new UsageException("unknown command '" + args[0] + "': use generate, compile or load");
			};
		}
		catch (UsageException ex) {
			this.err.println("deny-list: " + ex.getMessage() + " (deny-list --help shows the options)");
			return 2;
		}
		catch (DenyListException ex) {
			this.err.println("deny-list: " + ex.getMessage() + " — " + fix(ex));
			return 1;
		}
		catch (IOException ex) {
			this.err.println("deny-list: " + ex);
			return 1;
		}
		catch (OutOfMemoryError ex) {
			this.err.printf(Locale.ROOT,
					"deny-list: out of heap (max %,d MB) — generate holds 8 bytes per rule in memory: raise the heap, "
							+ "e.g. DENY_LIST_JAVA_OPTS=-Xmx1g for 30 M rules%n",
					Runtime.getRuntime().maxMemory() >> 20);
			return 1;
		}
	}

	private static String fix(DenyListException ex) {
		return switch (ex.kind()) {
			case BAD_LINE -> "fix line " + ex.line() + ", or pass --on-error skip";
			case SOURCE -> "check the path and its permissions";
			case COMPILED -> "free space there, or pass --compiled-dir DIR";
			case TOO_LARGE -> "shorten the list";
			case HEAP -> "raise -Xmx in DENY_LIST_JAVA_OPTS";
		};
	}

	private int load(String[] args) {
		if (args.length < 2 || args[1].startsWith("--")) {
			throw new UsageException(args[0] + " needs a FILE, e.g. " + args[0] + " .lab/deny-list/deny-list.txt");
		}
		Path file = path("FILE", args[1]);
		Options options = new Options(args, 2);
		OnError onError = OnError.FAIL;
		Path compiledDir = null;
		while (options.next()) {
			switch (options.option()) {
				case "--on-error" -> onError = onError(options.value());
				case "--compiled-dir" -> compiledDir = path("--compiled-dir", options.value());
				default -> throw new UsageException("unknown option '" + options.option() + "'");
			}
		}
		Runtime runtime = Runtime.getRuntime();
		DenyList list = args[0].equals("compile")
				? DenyListLoader.compile(file, onError, DenyListLoader.compiledPath(file, compiledDir),
						System.nanoTime())
				: DenyListLoader.load(file, onError, compiledDir, (note) -> this.out.println("note: " + note));
		System.gc();
		long heapUsed = runtime.totalMemory() - runtime.freeMemory();
		this.out.printf(Locale.ROOT,
				"%s %s in %.2f s: %,d rules -> %,d intervals, %,d bytes = %.2f bytes/rule (%.2f bytes/interval, "
						+ "mapped off the heap from %s), %,d bad lines skipped; heap used after GC %,d MB of max %,d MB%n",
				list.compiled() ? "compiled" : "loaded", file, list.loadNanos() / 1e9, list.rules(), list.intervals(),
				list.memoryBytes(), (double) list.memoryBytes() / Math.max(1, list.rules()),
				(double) list.memoryBytes() / Math.max(1, list.intervals()), list.file(), list.skippedLines(),
				heapUsed >> 20, runtime.maxMemory() >> 20);
		for (String line : list.skipped()) {
			this.out.println("skipped " + line);
		}
		return 0;
	}

	private static OnError onError(String value) {
		try {
			return OnError.valueOf(value.toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			throw new UsageException("--on-error: '" + value + "' is neither fail nor skip");
		}
	}

	static Path path(String option, String value) {
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

	/** {@code --option value} pairs from {@code args[from]} on. */
	static final class Options {

		private final String[] args;

		private int at;

		private String option;

		Options(String[] args, int from) {
			this.args = args;
			this.at = from - 2;
		}

		/** Moves to the next option; false at the end. */
		boolean next() {
			this.at += 2;
			if (this.at >= this.args.length) {
				return false;
			}
			this.option = this.args[this.at];
			if (!this.option.startsWith("--")) {
				throw new UsageException("unexpected '" + this.option + "': options start with --");
			}
			return true;
		}

		String option() {
			return this.option;
		}

		String value() {
			if (this.at + 1 >= this.args.length || this.args[this.at + 1].startsWith("--")) {
				throw new UsageException(this.option + " needs a value, e.g. " + this.option + " " + example());
			}
			return this.args[this.at + 1];
		}

		private String example() {
			return switch (this.option) {
				case "--rules" -> "3000000";
				case "--seed" -> "42";
				case "--out" -> ".lab/deny-list";
				case "--clients" -> "10000";
				case "--denied-share" -> "0.5";
				case "--on-error" -> "skip";
				case "--compiled-dir" -> "/var/cache/gateway";
				default -> "VALUE";
			};
		}

		long number(long min, long max) {
			String value = value();
			long n;
			try {
				n = Long.parseLong(value.replace("_", ""));
			}
			catch (NumberFormatException ex) {
				throw new UsageException(
						this.option + ": '" + value + "' is not a whole number, e.g. " + this.option + " " + example());
			}
			if (n < min || n > max) {
				throw new UsageException(String.format(Locale.ROOT, "%s: %,d is out of range: use %,d to %,d",
						this.option, n, min, max));
			}
			return n;
		}

		double fraction() {
			String value = value();
			try {
				double f = Double.parseDouble(value);
				if (f >= 0 && f <= 1) {
					return f;
				}
			}
			catch (NumberFormatException ex) {
				// reported below
			}
			throw new UsageException(
					this.option + ": '" + value + "' is not a number from 0 to 1, e.g. " + this.option + " 0.5");
		}

	}

}
