package dev.gatewaylab.runner.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples CPU and RSS of named processes from /proc every second (Linux only), plus the
 * machine's total CPU. CPU % is per core (100 % = one core busy), like top.
 */
public final class ProcSampler implements AutoCloseable {

	// USER_HZ; 100 on every mainstream Linux build
	private static final double CLK_TCK = 100.0;

	private final Map<String, Long> pids;

	private final Map<String, Acc> acc = new LinkedHashMap<>();

	private final Acc machine = new Acc();

	private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
		Thread t = new Thread(r, "lab-proc-sampler");
		t.setDaemon(true);
		return t;
	});

	private ProcSampler(Map<String, Long> pids) {
		this.pids = pids;
		pids.keySet().forEach(k -> acc.put(k, new Acc()));
	}

	/**
	 * Starts sampling the given processes (name → pid); missing or dead pids are reported
	 * as n/a.
	 */
	public static ProcSampler start(Map<String, Long> pids) {
		ProcSampler s = new ProcSampler(new LinkedHashMap<>(pids));
		s.tick();
		s.timer.scheduleAtFixedRate(s::tick, 1, 1, TimeUnit.SECONDS);
		return s;
	}

	public static boolean supported() {
		return Files.isReadable(Path.of("/proc/self/stat"));
	}

	/**
	 * Reads {@code <labHome>/.lab/<service>.pid}; returns null when absent or the process
	 * is gone.
	 */
	public static Long pidFromFile(Path labHome, String service) {
		Path f = labHome.resolve(".lab").resolve(service + ".pid");
		try {
			long pid = Long.parseLong(Files.readString(f).trim());
			return ProcessHandle.of(pid).map(ProcSampler::javaProcess).orElse(null);
		}
		catch (IOException | NumberFormatException e) {
			return null;
		}
	}

	/**
	 * A pid file may name a wrapper (nohup/bash/exec script): then sample its single java
	 * descendant.
	 */
	private static Long javaProcess(ProcessHandle p) {
		if (isJava(p)) {
			return p.pid();
		}
		List<ProcessHandle> javas = p.descendants().filter(ProcSampler::isJava).toList();
		return javas.size() == 1 ? javas.get(0).pid() : p.pid();
	}

	private static boolean isJava(ProcessHandle p) {
		return p.info().command().map(c -> c.endsWith("/java") || c.equals("java")).orElse(false);
	}

	private synchronized void tick() {
		long now = System.nanoTime();
		pids.forEach((name, pid) -> {
			long ticks = cpuTicks(pid);
			long rss = rssKb(pid);
			acc.get(name).add(now, ticks, rss);
		});
		machine.addMachine(now);
	}

	/**
	 * Stops sampling and returns per-process usage (including {@code machine}: total CPU
	 * % of all cores).
	 */
	@Override
	public synchronized void close() {
		timer.shutdownNow();
	}

	public synchronized Map<String, Usage> usage() {
		tick();
		Map<String, Usage> out = new LinkedHashMap<>();
		acc.forEach((k, v) -> out.put(k, v.usage()));
		out.put("machine", machine.usage());
		return out;
	}

	public static long cpuTicks(long pid) {
		try {
			return cpuTicksOf(Files.readString(Path.of("/proc/" + pid + "/stat")));
		}
		catch (IOException | RuntimeException e) {
			return -1;
		}
	}

	static long rssKb(long pid) {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
				if (line.startsWith("VmRSS:")) {
					return Long.parseLong(line.replaceAll("[^0-9]", ""));
				}
			}
		}
		catch (IOException | RuntimeException e) {
			// process gone
		}
		return -1;
	}

	/** busy and total jiffies of all cores from the first line of /proc/stat. */
	public static long[] machineTicks() {
		try {
			List<String> lines = Files.readAllLines(Path.of("/proc/stat"));
			String[] f = lines.get(0).trim().split("\\s+");
			long total = 0;
			for (int i = 1; i < f.length && i <= 8; i++) {
				total += Long.parseLong(f[i]);
			}
			long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
			return new long[] { total - idle, total };
		}
		catch (IOException | RuntimeException e) {
			return null;
		}
	}

	/**
	 * Mean CPU % (100 = one core; for "machine": % of all cores), CPU seconds used (user
	 * + system; NaN for the machine) and peak RSS in MiB; NaN/-1 when unknown.
	 */
	public record Usage(double cpuPercent, double cpuSeconds, double rssMiB) {
		public boolean known() {
			return !Double.isNaN(cpuPercent);
		}

		/**
		 * CPU microseconds per request: the CPU this process used over the requests
		 * served meanwhile.
		 */
		public double microsPerRequest(long requests) {
			return requests <= 0 || Double.isNaN(cpuSeconds) ? Double.NaN : cpuSeconds * 1e6 / requests;
		}
	}

	/**
	 * utime + stime (fields 14 and 15) of a /proc/<pid>/stat line, in clock ticks; the
	 * name may hold spaces.
	 */
	static long cpuTicksOf(String stat) {
		String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
		return Long.parseLong(f[11]) + Long.parseLong(f[12]);
	}

	/**
	 * CPU seconds between two readings of utime + stime in clock ticks (USER_HZ = 100).
	 */
	static double cpuSeconds(long firstTicks, long lastTicks) {
		return firstTicks < 0 || lastTicks < firstTicks ? Double.NaN : (lastTicks - firstTicks) / CLK_TCK;
	}

	private static final class Acc {

		private long firstNanos;

		private long firstTicks = -1;

		private long lastNanos;

		private long lastTicks = -1;

		private long maxRssKb = -1;

		private long[] firstMachine;

		private long[] lastMachine;

		void add(long nanos, long ticks, long rssKb) {
			if (ticks >= 0) {
				if (firstTicks < 0) {
					firstTicks = ticks;
					firstNanos = nanos;
				}
				lastTicks = ticks;
				lastNanos = nanos;
			}
			maxRssKb = Math.max(maxRssKb, rssKb);
		}

		void addMachine(long nanos) {
			long[] m = machineTicks();
			if (m == null) {
				return;
			}
			if (firstMachine == null) {
				firstMachine = m;
			}
			lastMachine = m;
		}

		Usage usage() {
			if (firstMachine != null) {
				long total = lastMachine[1] - firstMachine[1];
				double pct = total <= 0 ? Double.NaN : 100.0 * (lastMachine[0] - firstMachine[0]) / total;
				return new Usage(pct, Double.NaN, -1);
			}
			double seconds = (lastNanos - firstNanos) / 1e9;
			double cpu = firstTicks < 0 || seconds < 0.5 ? Double.NaN
					: 100.0 * (lastTicks - firstTicks) / CLK_TCK / seconds;
			return new Usage(cpu, cpuSeconds(firstTicks, lastTicks), maxRssKb < 0 ? -1 : maxRssKb / 1024.0);
		}

	}

}
