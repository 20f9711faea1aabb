package dev.gatewaylab.denylist;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

import dev.gatewaylab.denylist.DenyListException.Kind;

/**
 * Loads a text deny list through its compiled form: the compiled file
 * ({@code <list>.compiled}) is reused when its header names the same text (size and
 * CRC-32C) and otherwise compiled anew — the text parsed in one streaming pass, sorted in
 * chunks ({@link SortedRuns}), written to a temporary file beside the target and renamed
 * over it — then mapped read-only. The heap needed is a few MiB whatever the list's size;
 * the disk needed beside the compiled file is up to about the text list's own size while
 * compiling.
 */
public final class DenyListLoader {

	/** Appended to the text list's file name. */
	public static final String SUFFIX = ".compiled";

	private DenyListLoader() {
	}

	/**
	 * Where the compiled form of {@code text} goes: in {@code compiledDir} when one is
	 * given; else beside the list when that directory is writable, else in the JVM's
	 * temporary directory.
	 */
	public static Path compiledPath(Path text, Path compiledDir) {
		String name = text.getFileName() + SUFFIX;
		if (compiledDir != null) {
			return compiledDir.resolve(name);
		}
		Path beside = sibling(text);
		if (Files.isWritable(beside.getParent())) {
			return beside;
		}
		String key = Integer.toHexString(text.toAbsolutePath().normalize().toString().hashCode());
		return Path.of(System.getProperty("java.io.tmpdir"), "gateway-deny-list", key + "-" + name);
	}

	private static Path sibling(Path text) {
		Path absolute = text.toAbsolutePath();
		return absolute.resolveSibling(absolute.getFileName() + SUFFIX);
	}

	/**
	 * {@link #load(Path, OnError, Path, Consumer)} with the default place and no notes.
	 */
	public static DenyList load(Path text, OnError onError) {
		return load(text, onError, null, (note) -> {
		});
	}

	/**
	 * The list in {@code text}, through its compiled form (reused or written).
	 * @param notes told why an existing compiled file was not reused
	 * @throws DenyListException naming the list, its size and the kind of problem; never
	 * returns a partial list
	 */
	public static DenyList load(Path text, OnError onError, Path compiledDir, Consumer<String> notes) {
		long start = System.nanoTime();
		long size = sourceBytes(text);
		Path target = compiledPath(text, compiledDir);
		Set<Path> candidates = new LinkedHashSet<>();
		candidates.add(target);
		candidates.add(sibling(text));
		for (Path candidate : candidates) {
			if (Files.isRegularFile(candidate)) {
				DenyList reused = reuse(candidate, text, size, onError, start, notes);
				if (reused != null) {
					return reused;
				}
			}
		}
		return compile(text, onError, target, start);
	}

	private static DenyList reuse(Path compiled, Path text, long size, OnError onError, long start,
			Consumer<String> notes) {
		try {
			DenyList list = DenyListFile.map(compiled, start, false);
			DenyListFile.Header header = list.header();
			if (header.sourceSize() != size || header.sourceCrc() != crc(text)) {
				notes.accept(compiled + " was compiled from another version of " + text + ": compiling anew");
			}
			else if (onError == OnError.FAIL && header.skippedLines() > 0) {
				notes.accept(compiled + " skipped bad lines and on-error is fail: compiling anew");
			}
			else {
				return list;
			}
		}
		catch (DenyListFile.InvalidException | IOException ex) {
			notes.accept(compiled + " cannot be used (" + ex.getMessage() + "): compiling anew");
		}
		return null;
	}

	/**
	 * Compiles {@code text} into {@code target} (written aside, then renamed over it) and
	 * maps the result.
	 */
	public static DenyList compile(Path text, OnError onError, Path target, long startNanos) {
		return compile(text, onError, target, startNanos, SortedRuns.CHUNK);
	}

	/**
	 * As {@link #compile(Path, OnError, Path, long)}, sorting {@code chunk} rules at a
	 * time.
	 */
	static DenyList compile(Path text, OnError onError, Path target, long startNanos, int chunk) {
		long size = sourceBytes(text);
		Path dir = target.toAbsolutePath().getParent();
		Path temp = null;
		try (SortedRuns runs = new SortedRuns(dir, chunk)) {
			Files.createDirectories(dir);
			DenyListParser parser = new DenyListParser(text, onError, runs::add);
			try {
				parser.parse();
			}
			catch (IOException ex) {
				throw new DenyListException(text, 0, "cannot be read: " + describe(ex), Kind.SOURCE, size, ex);
			}
			runs.finish();
			// The index is sized for the intervals before the runs coalesce with
			// each other (an upper bound): the exact count is known only once they
			// are merged, and one merge, straight into the file, is all the time a
			// large list can spare.
			long upperBound = 2L * runs.upperBound();
			int headerSize = DenyListFile.headerSize(parser.skipped());
			int bits = DenyList.bits(upperBound);
			if (headerSize + 4L * ((1L << bits) + 1) + 2 * upperBound > Integer.MAX_VALUE) {
				throw new DenyListException(text, 0,
						String.format(
								"too large: %,d rules coalesce into up to %,d "
										+ "intervals, over the 2 GiB a compiled list can hold (about 500 M intervals)",
								parser.rules(), upperBound / 2),
						Kind.TOO_LARGE, size, null);
			}
			temp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
			try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
				DenyListWriter writer = new DenyListWriter(DenyListWriter.into(channel), headerSize, bits);
				// Intervals, and 1 if the last one ends at the top.
				long[] counted = new long[2];
				runs.merge((first, last) -> {
					writer.add(first, last);
					counted[0]++;
					counted[1] = (last == 0xFFFFFFFFL) ? 1 : 0;
				});
				writer.finish(DenyListFile.Header.of(parser.bytes(), parser.crc(), parser.rules(),
						parser.skippedLines(), parser.skipped(), (int) counted[0], counted[1] == 1, bits));
				channel.force(true);
			}
			readableByAll(temp);
			Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
			temp = null;
			return DenyListFile.map(target, startNanos, true);
		}
		catch (UncheckedIOException ex) {
			throw compileFailed(text, dir, size, ex.getCause());
		}
		catch (IOException ex) {
			throw compileFailed(text, dir, size, ex);
		}
		catch (DenyListFile.InvalidException ex) {
			throw new DenyListException(text, 0,
					"its compiled form " + target + " was changed while it was opened: " + ex.getMessage(),
					Kind.COMPILED, size, ex);
		}
		catch (OutOfMemoryError ex) {
			throw new DenyListException(text, 0,
					String.format("out of heap while compiling (max %,d MB; compiling " + "needs about 16 MB)",
							Runtime.getRuntime().maxMemory() >> 20),
					Kind.HEAP, size, null);
		}
		catch (DenyListException ex) {
			throw ex.withSourceBytes(size);
		}
		finally {
			deleteQuietly(temp);
		}
	}

	/** Temporary files are private; the compiled list is as readable as the text list. */
	private static void readableByAll(Path file) throws IOException {
		if (Files.getFileStore(file).supportsFileAttributeView("posix")) {
			Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
		}
	}

	private static DenyListException compileFailed(Path text, Path dir, long size, IOException ex) {
		return new DenyListException(text, 0,
				String.format("cannot be compiled into %s: %s (compiling needs up to about the list's size free there)",
						dir, describe(ex)),
				Kind.COMPILED, size, ex);
	}

	private static void deleteQuietly(Path file) {
		if (file != null) {
			try {
				Files.deleteIfExists(file);
			}
			catch (IOException ex) {
				// A leftover temporary file is named after the list;
				// the next compile writes a new one.
			}
		}
	}

	/** The text list's size; missing or unreadable is a {@link Kind#SOURCE} problem. */
	private static long sourceBytes(Path text) {
		try {
			if (Files.isDirectory(text)) {
				throw new DenyListException(text, 0, "is a directory, not a rule file", Kind.SOURCE, -1, null);
			}
			long size = Files.size(text);
			if (!Files.isReadable(text)) {
				throw new AccessDeniedException(text.toString());
			}
			return size;
		}
		catch (NoSuchFileException ex) {
			throw new DenyListException(text, 0, "no such file", Kind.SOURCE, -1, ex);
		}
		catch (IOException ex) {
			throw new DenyListException(text, 0, "cannot be read: " + describe(ex), Kind.SOURCE, -1, ex);
		}
	}

	static String describe(IOException ex) {
		if (ex instanceof AccessDeniedException denied) {
			return "permission denied (" + denied.getFile() + ")";
		}
		if (ex instanceof FileSystemException failed && failed.getReason() != null) {
			return failed.getReason() + " (" + failed.getFile() + ")";
		}
		String message = ex.getMessage();
		return (message != null) ? message : ex.getClass().getSimpleName();
	}

	/** CRC-32C of a whole file. */
	static int crc(Path file) throws IOException {
		CRC32C crc = new CRC32C();
		byte[] buffer = new byte[1 << 16];
		try (InputStream in = Files.newInputStream(file)) {
			int n;
			while ((n = in.read(buffer)) > 0) {
				crc.update(buffer, 0, n);
			}
		}
		return (int) crc.getValue();
	}

}
