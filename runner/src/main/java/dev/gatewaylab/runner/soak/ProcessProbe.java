package dev.gatewaylab.runner.soak;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Reads one JVM's state for the soak: RSS, threads and open file descriptors from /proc
 * (Linux), heap after GC (a full GC forced with {@code jcmd <pid> GC.run}, then the old
 * generation's {@code jvm_memory_used_bytes} from its Prometheus endpoint: after a full
 * GC the old generation holds everything live) and the gateway's
 * {@code gateway_log_events_dropped_total}. What cannot be read is NaN / -1, and
 * {@link #problems()} says why once.
 */
final class ProcessProbe {

	private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private final Long pid;

	private final URI management;

	private final List<String> problems = new ArrayList<>();

	/**
	 * {@code pid} null: process figures unknown; {@code management} null: heap and log
	 * drops unknown.
	 */
	ProcessProbe(Long pid, URI management) {
		this.pid = pid;
		this.management = management;
	}

	/**
	 * One reading; forces a full GC in the process first (a pause of a few ms, once per
	 * interval).
	 */
	Reading read() {
		long[] status = pid == null ? new long[] { -1, -1 } : status(pid);
		long fds = pid == null ? -1 : fds(pid);
		boolean gc = pid != null && fullGc(pid);
		String metrics = scrape();
		double heap = gc && metrics != null ? oldGenMiB(metrics) : Double.NaN;
		if (gc && metrics != null && Double.isNaN(heap)) {
			problem("no old-generation pool in jvm_memory_used_bytes (a GC without generations?): heap after GC unknown");
		}
		double dropped = metrics == null ? Double.NaN : sum(metrics, "gateway_log_events_dropped_total");
		return new Reading(status[0] < 0 ? Double.NaN : status[0] / 1024.0, heap, fds, status[1], dropped);
	}

	List<String> problems() {
		return List.copyOf(problems);
	}

	/** RSS in KiB and the thread count from /proc/PID/status; -1 when unreadable. */
	private long[] status(long p) {
		long rss = -1;
		long threads = -1;
		try {
			for (String line : Files.readAllLines(Path.of("/proc/" + p + "/status"))) {
				if (line.startsWith("VmRSS:")) {
					rss = Long.parseLong(line.replaceAll("[^0-9]", ""));
				}
				else if (line.startsWith("Threads:")) {
					threads = Long.parseLong(line.replaceAll("[^0-9]", ""));
				}
			}
		}
		catch (IOException | RuntimeException e) {
			problem("cannot read /proc/" + p + "/status (" + e.getMessage() + "): RSS and threads unknown");
		}
		return new long[] { rss, threads };
	}

	private long fds(long p) {
		try (Stream<Path> s = Files.list(Path.of("/proc/" + p + "/fd"))) {
			return s.count();
		}
		catch (IOException | RuntimeException e) {
			problem("cannot list /proc/" + p + "/fd (" + e.getMessage() + "): open file descriptors unknown");
			return -1;
		}
	}

	/**
	 * {@code jcmd PID GC.run} with the process's own JDK (its jcmd sits beside its java).
	 */
	private boolean fullGc(long p) {
		String java = ProcessHandle.of(p).flatMap(h -> h.info().command()).orElse(null);
		Path jcmd = java == null ? null : Path.of(java).resolveSibling("jcmd");
		if (jcmd == null || !Files.isExecutable(jcmd)) {
			problem("no jcmd beside the process's java (" + java + "): heap after GC unknown — run the apps on a JDK");
			return false;
		}
		try {
			Process gc = new ProcessBuilder(jcmd.toString(), Long.toString(p), "GC.run").redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			if (!gc.waitFor(20, TimeUnit.SECONDS)) {
				gc.destroyForcibly();
				problem("jcmd " + p + " GC.run took over 20 s: heap after GC unknown for that interval");
				return false;
			}
			if (gc.exitValue() != 0) {
				problem("jcmd " + p + " GC.run exited " + gc.exitValue() + ": heap after GC unknown");
				return false;
			}
			return true;
		}
		catch (IOException e) {
			problem("cannot run " + jcmd + " (" + e.getMessage() + "): heap after GC unknown");
			return false;
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private String scrape() {
		if (management == null) {
			return null;
		}
		try {
			HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create(management + "/actuator/prometheus"))
				.timeout(Duration.ofSeconds(5))
				.GET()
				.build(), HttpResponse.BodyHandlers.ofString());
			if (r.statusCode() == 200) {
				return r.body();
			}
			problem(management + "/actuator/prometheus answered " + r.statusCode() + ": heap and log drops unknown");
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
		catch (IOException e) {
			problem("cannot read " + management + "/actuator/prometheus (" + e + "): heap and log drops unknown");
		}
		return null;
	}

	/**
	 * The old generation's used bytes in MiB (Parallel "PS Old Gen", G1 "G1 Old Gen",
	 * Serial "Tenured Gen").
	 */
	static double oldGenMiB(String metrics) {
		double bytes = Double.NaN;
		for (String line : metrics.split("\n")) {
			if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\"")
					&& (line.contains("Old Gen\"") || line.contains("Tenured Gen\""))) {
				bytes = (Double.isNaN(bytes) ? 0 : bytes) + value(line);
			}
		}
		return bytes / (1024.0 * 1024.0);
	}

	/** Sum of every series of a metric; NaN when absent. */
	static double sum(String metrics, String name) {
		double total = Double.NaN;
		for (String line : metrics.split("\n")) {
			if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
				total = (Double.isNaN(total) ? 0 : total) + value(line);
			}
		}
		return total;
	}

	private static double value(String line) {
		int brace = line.lastIndexOf('}');
		String rest = (brace >= 0 ? line.substring(brace + 1) : line.substring(line.indexOf(' ') + 1)).trim();
		return Double.parseDouble(rest.split("\\s+")[0]);
	}

	private void problem(String p) {
		synchronized (problems) {
			if (!problems.contains(p)) {
				problems.add(p);
			}
		}
	}

	/**
	 * RSS and heap after GC in MiB, open file descriptors, threads, log events dropped so
	 * far.
	 */
	record Reading(double rssMiB, double heapAfterGcMiB, long openFds, long threads, double logEventsDropped) {
	}

}
