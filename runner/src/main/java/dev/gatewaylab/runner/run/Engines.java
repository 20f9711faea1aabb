package dev.gatewaylab.runner.run;

import dev.gatewaylab.runner.process.ProcSampler;
import dev.gatewaylab.runner.result.EngineResult;
import dev.gatewaylab.runner.stats.Stats;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The remote engines' part of a run (bench and sweep): samples per engine (from the JTLs'
 * thread names) per target, each engine's CPU when it runs on this machine (started by
 * ./lab engine: its pid file), its clock offset, and a warning when one did much less
 * than the others — the load was then not spread as the thread count says.
 */
public final class Engines {

	/**
	 * An engine below this fraction of the other engines' mean sample count is reported
	 * as lagging.
	 */
	static final double LAGGING = 0.7;

	private final List<String> hosts;

	private final Map<String, Map<String, Long>> perEngine = new LinkedHashMap<>();

	private final List<Map<String, ProcSampler.Usage>> usages = new ArrayList<>();

	/** {@code hosts}: the engines as given to --remote. */
	public Engines(List<String> hosts) {
		this.hosts = List.copyOf(hosts);
		hosts.forEach(e -> perEngine.put(e, new LinkedHashMap<>()));
	}

	/**
	 * The process name under which an engine's CPU is sampled (resources and CPU tables).
	 */
	public static String processName(String engine) {
		return "engine " + engine;
	}

	/**
	 * Engines started by ./lab engine from this checkout (pid file
	 * {@code .lab/engine-HOST-PORT.pid}) → pid.
	 */
	public static Map<String, Long> localPids(Path labHome, List<String> engines) {
		Map<String, Long> pids = new LinkedHashMap<>();
		for (String e : engines) {
			int colon = e.lastIndexOf(':');
			String file = "engine-" + (colon < 0 ? e + "-1099" : e.substring(0, colon) + "-" + e.substring(colon + 1));
			Long pid = ProcSampler.pidFromFile(labHome, file);
			if (pid != null) {
				pids.put(processName(e), pid);
			}
		}
		return pids;
	}

	/**
	 * One measured JTL of {@code target}: its samples per engine
	 * ({@link Load.Measured#engines()}).
	 */
	public void samples(String target, Map<String, Long> counts) {
		counts.forEach((e, n) -> perEngine.computeIfAbsent(e, k -> new LinkedHashMap<>()).merge(target, n, Long::sum));
	}

	/** The processes' CPU over one measured JTL (only the engines' entries are read). */
	public void usage(Map<String, ProcSampler.Usage> usage) {
		usages.add(usage);
	}

	/** run.json / sweep.json "engines"; null without remote engines. */
	public List<EngineResult> results(List<String> lost, ClockOffsets clocks) {
		if (hosts.isEmpty()) {
			return null;
		}
		long total = perEngine.values().stream().flatMap(m -> m.values().stream()).mapToLong(Long::longValue).sum();
		List<EngineResult> out = new ArrayList<>();
		perEngine.forEach((e, counts) -> {
			long n = counts.values().stream().mapToLong(Long::longValue).sum();
			double[] cpu = usages.stream()
				.map(u -> u.get(processName(e)))
				.filter(u -> u != null && u.known())
				.mapToDouble(ProcSampler.Usage::cpuPercent)
				.toArray();
			out.add(new EngineResult(e, n, total == 0 ? 0 : 100.0 * n / total, counts,
					cpu.length == 0 ? null : Stats.mean(cpu), clocks == null ? null : clocks.offset(e),
					note(lost.contains(e), cpu.length > 0)));
		});
		return out;
	}

	private static String note(boolean lost, boolean cpu) {
		String n = cpu ? "process CPU, 100 = one core" : "CPU n/a: not started by ./lab engine on this machine";
		return lost ? "lost during the run, the run went on without it (see warnings); " + n : n;
	}

	/**
	 * One warning per engine (not lost) that sent less than {@value #LAGGING} of the
	 * other engines' mean.
	 */
	public static List<String> warnings(List<EngineResult> engines, List<String> lost) {
		List<String> w = new ArrayList<>();
		if (engines == null || engines.size() < 2) {
			return w;
		}
		long total = engines.stream().mapToLong(EngineResult::samples).sum();
		for (EngineResult e : engines) {
			double othersMean = (double) (total - e.samples()) / (engines.size() - 1);
			if (othersMean > 0 && e.samples() < LAGGING * othersMean && !lost.contains(e.engine())) {
				w.add(String.format(Locale.ROOT, "engine %s sent %d samples, %.0f %% of the other engines' mean "
						+ "(%.0f): every engine runs the same threads, so it was slower — overloaded (CPU %s), a "
						+ "slower network path, or lost part of the run; the load was not spread evenly", e.engine(),
						e.samples(), 100 * e.samples() / othersMean, othersMean,
						e.cpuPercent() == null ? "n/a" : String.format(Locale.ROOT, "%.0f %%", e.cpuPercent())));
			}
		}
		return w;
	}

}
