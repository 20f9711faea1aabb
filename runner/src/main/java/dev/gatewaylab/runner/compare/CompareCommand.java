package dev.gatewaylab.runner.compare;

import dev.gatewaylab.runner.report.Fmt;
import dev.gatewaylab.runner.result.RunResult;
import dev.gatewaylab.runner.result.TargetResult;
import dev.gatewaylab.runner.run.LabException;
import dev.gatewaylab.runner.run.Runs;
import dev.gatewaylab.runner.stats.Stats;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "compare", mixinStandardHelpOptions = true,
		description = "AS-IS (runDirA) vs TO-BE (runDirB) per target: TPS Δ% with 95 % CI and Welch's t-test, p99 Δ%.")
public final class CompareCommand implements Callable<Integer> {

	@Parameters(index = "0", description = "AS-IS run directory (holds run.json)")
	Path runA;

	@Parameters(index = "1", description = "TO-BE run directory (holds run.json)")
	Path runB;

	private final PrintStream out;

	public CompareCommand(PrintStream out) {
		this.out = out;
	}

	@Override
	public Integer call() {
		RunResult a = load(runA);
		RunResult b = load(runB);
		out.print(render(a, b));
		return 0;
	}

	static RunResult load(Path dir) {
		Path json = dir.resolve("run.json");
		if (!Files.isRegularFile(json)) {
			String why = Files.exists(dir.resolve(Runs.INCOMPLETE)) ? " (the run is marked INCOMPLETE)" : "";
			throw new LabException(dir + " has no run.json" + why,
					"pass a results/<stamp> directory of a finished bench");
		}
		try {
			return RunResult.read(json);
		}
		catch (IOException e) {
			throw new LabException("cannot read " + json + ": " + e.getMessage(),
					"pass the directory of a finished bench");
		}
	}

	/**
	 * The comparison table; fails (exit 2) when the two runs measured different targets.
	 */
	public static String render(RunResult a, RunResult b) {
		Map<String, TargetResult> ta = byName(a);
		Map<String, TargetResult> tb = byName(b);
		if (!ta.keySet().equals(tb.keySet())) {
			throw new LabException("the runs measured different targets: " + new TreeSet<>(ta.keySet()) + " vs "
					+ new TreeSet<>(tb.keySet()), "compare runs made with the same --targets");
		}
		StringBuilder sb = new StringBuilder();
		sb.append(
				"| target | AS-IS TPS | TO-BE TPS | TPS Δ (95 % CI) | significance | AS-IS p99 ms | TO-BE p99 ms | p99 Δ |\n");
		sb.append("|---|---:|---:|---:|---|---:|---:|---:|\n");
		List<String> notes = new ArrayList<>();
		for (String name : ta.keySet()) {
			TargetResult x = ta.get(name);
			TargetResult y = tb.get(name);
			String delta;
			String sig;
			if (x.tpsReps() != null && y.tpsReps() != null && x.tpsReps().length >= 2 && y.tpsReps().length >= 2) {
				Stats.Welch w = Stats.welch(x.tpsReps(), y.tpsReps());
				delta = String.format(Locale.ROOT, "%+.1f %% ± %.1f %%", w.diffPercent(), w.ci95Percent());
				sig = String.format(Locale.ROOT, "%s (Welch p=%.3f)",
						w.significant() ? "significant" : "not significant", w.p());
			}
			else {
				delta = String.format(Locale.ROOT, "%+.1f %%", 100 * (y.tps() - x.tps()) / x.tps());
				sig = "n/a (needs ≥ 2 reps each)";
				notes.add(name + ": fewer than two repetitions on a side, no test possible");
			}
			double p99 = x.p99Ms() == null || y.p99Ms() == null || x.p99Ms() == 0 ? Double.NaN
					: 100.0 * (y.p99Ms() - x.p99Ms()) / x.p99Ms();
			sb.append(String.format(Locale.ROOT, "| %s | %.1f ± %.1f | %.1f ± %.1f | %s | %s | %s | %s | %s |%n", name,
					x.tps(), x.tpsCi95(), y.tps(), y.tpsCi95(), delta, sig, Fmt.ms(x.p99Ms()), Fmt.ms(y.p99Ms()),
					Double.isNaN(p99) ? "n/a" : String.format(Locale.ROOT, "%+.1f %%", p99)));
		}
		Object sa = a.settings().get("model");
		Object sb2 = b.settings().get("model");
		if (sa != null && !sa.equals(sb2)) {
			notes.add("the runs used different load models: " + sa + " vs " + sb2);
		}
		notes.forEach(n -> sb.append("note: ").append(n).append('\n'));
		return sb.toString();
	}

	private static Map<String, TargetResult> byName(RunResult r) {
		return r.targets()
			.stream()
			.collect(Collectors.toMap(TargetResult::name, Function.identity(), (x, y) -> x,
					java.util.LinkedHashMap::new));
	}

}
