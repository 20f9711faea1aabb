package dev.gatewaylab.runner.sweep;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Kernel limits that distort high-concurrency numbers: open files and the accept backlog.
 */
final class Preflight {

	private Preflight() {
	}

	static List<String> warnings(int maxLevel) {
		return warnings(maxLevel, openFilesSoftLimit(), readLong(Path.of("/proc/sys/net/core/somaxconn")));
	}

	static List<String> warnings(int maxLevel, long nofile, long somaxconn) {
		List<String> w = new ArrayList<>();
		if (nofile >= 0 && nofile < 2L * maxLevel + 1024) {
			w.add("open-files limit " + nofile + " < 2 × " + maxLevel + " + 1024: connections will fail with 'Too many "
					+ "open files' — run 'ulimit -n 65535' in this shell first");
		}
		if (somaxconn >= 0 && somaxconn < maxLevel) {
			w.add("net.core.somaxconn " + somaxconn + " < " + maxLevel + ": connection bursts overflow the accept "
					+ "backlog (SYN retries add ~1 s latency) — run 'sysctl -w net.core.somaxconn=4096'");
		}
		return w;
	}

	static long openFilesSoftLimit() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
				if (line.startsWith("Max open files")) {
					String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
					return "unlimited".equals(soft) ? Long.MAX_VALUE : Long.parseLong(soft);
				}
			}
		}
		catch (IOException | RuntimeException e) {
			// not Linux
		}
		return -1;
	}

	/**
	 * A number in a file such as a sysctl's under /proc/sys, read in one call: the kernel
	 * answers a read at any offset but 0 of an integer sysctl with end-of-file, so
	 * {@code Files.readString} (a first read of one byte, the file's size being 0) saw
	 * "4" of "4096".
	 */
	static long readLong(Path p) {
		try (InputStream in = Files.newInputStream(p)) {
			return Long.parseLong(new String(in.readNBytes(64), StandardCharsets.US_ASCII).trim());
		}
		catch (IOException | RuntimeException e) {
			return -1;
		}
	}

}
