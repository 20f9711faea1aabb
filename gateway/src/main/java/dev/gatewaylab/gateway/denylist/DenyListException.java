package dev.gatewaylab.gateway.denylist;

import java.nio.file.Path;

/**
 * The deny-list file cannot be used: says which file, which line (0 = the file as a
 * whole) and why.
 */
class DenyListException extends RuntimeException {

	private final Path file;

	private final long line;

	private final String reason;

	DenyListException(Path file, long line, String reason, Throwable cause) {
		super(location(file, line) + ": " + reason, cause);
		this.file = file;
		this.line = line;
		this.reason = reason;
	}

	static String location(Path file, long line) {
		return (line > 0) ? file + ":" + line : file.toString();
	}

	Path file() {
		return this.file;
	}

	long line() {
		return this.line;
	}

	String reason() {
		return this.reason;
	}

}
