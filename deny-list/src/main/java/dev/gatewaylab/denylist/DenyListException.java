package dev.gatewaylab.denylist;

import java.nio.file.Path;
import java.util.Locale;

/**
 * The deny list cannot be used: says which file, which line (0 = the file as a whole),
 * why, and what kind of problem it is, so the gateway and the tool can each name the
 * setting that fixes it.
 */
public class DenyListException extends RuntimeException {

	/** What the fix is about. */
	public enum Kind {

		/** A bad line (on-error=fail): fix the line or skip bad lines. */
		BAD_LINE,

		/** The text list is missing or unreadable: fix the path or its permissions. */
		SOURCE,

		/** The compiled form cannot be written where it goes (no room, not writable). */
		COMPILED,

		/** More intervals than a compiled list can hold. */
		TOO_LARGE,

		/** Not enough heap to compile. */
		HEAP

	}

	private final Path file;

	private final long line;

	private final String reason;

	private final Kind kind;

	private final long sourceBytes;

	/**
	 * @param file the text list
	 * @param line the bad line, or 0 for the file as a whole
	 * @param reason what is wrong, for a message
	 * @param kind what the fix is about
	 * @param sourceBytes the text list's size, or -1 when unknown
	 * @param cause the underlying failure, or null
	 */
	public DenyListException(Path file, long line, String reason, Kind kind, long sourceBytes, Throwable cause) {
		super(location(file, line) + ": " + reason, cause);
		this.file = file;
		this.line = line;
		this.reason = reason;
		this.kind = kind;
		this.sourceBytes = sourceBytes;
	}

	static DenyListException badLine(Path file, long line, String reason) {
		return new DenyListException(file, line, reason, Kind.BAD_LINE, -1, null);
	}

	/** The same problem, with the text list's size to report. */
	DenyListException withSourceBytes(long bytes) {
		return (this.sourceBytes >= 0 || bytes < 0) ? this
				: new DenyListException(this.file, this.line, this.reason, this.kind, bytes, getCause());
	}

	static String location(Path file, long line) {
		return (line > 0) ? file + ":" + line : file.toString();
	}

	public Path file() {
		return this.file;
	}

	public long line() {
		return this.line;
	}

	public String reason() {
		return this.reason;
	}

	public Kind kind() {
		return this.kind;
	}

	/** The text list's size in bytes, or -1 when unknown (missing, unreadable). */
	public long sourceBytes() {
		return this.sourceBytes;
	}

	/** "the list (441 MB)" for messages; without a size when it is unknown. */
	public String describeList() {
		if (this.sourceBytes < 0) {
			return this.file.toString();
		}
		return (this.sourceBytes < 1 << 20) ? String.format(Locale.ROOT, "%s (%,d bytes)", this.file, this.sourceBytes)
				: String.format(Locale.ROOT, "%s (%,d MB)", this.file, this.sourceBytes >> 20);
	}

}
