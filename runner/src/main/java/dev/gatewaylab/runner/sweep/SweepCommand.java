package dev.gatewaylab.runner.sweep;

import dev.gatewaylab.runner.run.Catalog;
import dev.gatewaylab.runner.run.LabException;
import dev.gatewaylab.runner.run.LoadOptions;
import dev.gatewaylab.runner.run.Settings;
import dev.gatewaylab.runner.run.TargetOptions;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "sweep", mixinStandardHelpOptions = true,
		description = "Concurrency levels per target: AVG/MIN/MAX/p99/TPS per level; sweep.md, sweep.html, sweep.json.")
public final class SweepCommand implements Callable<Integer> {

	@Mixin
	TargetOptions target = new TargetOptions();

	@Option(names = "--levels", split = ",", defaultValue = "10,100,500,1000",
			description = "Thread counts (default: ${DEFAULT-VALUE}).")
	List<Integer> levels;

	@Mixin
	LoadOptions load = new LoadOptions();

	private final PrintStream out;

	private final PrintStream err;

	public SweepCommand(PrintStream out, PrintStream err) {
		this.out = out;
		this.err = err;
	}

	@Override
	public Integer call() throws Exception {
		if (levels.isEmpty() || levels.stream().anyMatch(l -> l == null || l < 1)) {
			throw new LabException("invalid --levels " + levels + ": each level must be ≥ 1",
					"use e.g. --levels 10,100,500");
		}
		int duration = load.duration(10);
		int warmup = load.warmup(5);
		int warmupMax = load.warmupMax(120);
		int threads = load.threads(levels.get(0));
		if (load.rateGiven()) {
			throw new LabException("sweep has no --rate: its levels are closed-model thread counts",
					"leave out --rate; use --levels 10,100,500");
		}
		Path labHome = TargetOptions.labHome();
		Catalog catalog = Catalog.load(labHome);
		Map<String, String> props = target.properties();
		Settings.RUNNER_KEYS.forEach(props::remove);
		Settings s = new Settings(1, duration, warmup, warmupMax, threads, 0, false, 0, 1,
				target.resolveTargets(catalog, Settings.plansDir(labHome)), props, labHome, target.resultsRoot(labHome),
				target.metricsHost(), target.metricsPort(), target.remote(), false, null, false, catalog);
		int max = levels.stream().mapToInt(Integer::intValue).max().orElse(0);
		Preflight.warnings(max).forEach(w -> err.println("warning: " + w));
		return new Sweep(s, levels, out, err).run(target.start());
	}

}
