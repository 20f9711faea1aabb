package dev.gatewaylab.runner.soak;

import dev.gatewaylab.runner.remote.Remote;
import dev.gatewaylab.runner.run.Catalog;
import dev.gatewaylab.runner.run.LabException;
import dev.gatewaylab.runner.run.LoadOptions;
import dev.gatewaylab.runner.run.Settings;
import dev.gatewaylab.runner.run.Target;
import dev.gatewaylab.runner.run.TargetOptions;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "soak", mixinStandardHelpOptions = true, description = {
		"Steady open-model load on one target (default: the gateway) for --minutes, sampled per interval: "
				+ "TPS, p99, errors, and the serving process's RSS, heap after GC, open file descriptors, threads, "
				+ "dropped log events; soak.json and soak.md.",
		"Exit 0: stable; 3: drift found (each finding named); 2: bad input." })
public final class SoakCommand implements Callable<Integer> {

	@Mixin
	TargetOptions target = new TargetOptions();

	@Option(names = "--minutes", defaultValue = "10",
			description = "Soak length in minutes (default: ${DEFAULT-VALUE}).")
	int minutes;

	@Option(names = "--seconds", description = "Soak length in seconds instead of --minutes (short runs: CI).")
	Integer seconds;

	@Option(names = "--interval", defaultValue = "60",
			description = "Seconds per sample (default: ${DEFAULT-VALUE}); each sample forces one full GC in the soaked process (jcmd GC.run) to read its heap after GC.")
	int interval;

	@Mixin
	LoadOptions load = new LoadOptions();

	@Option(names = "--probe-seconds", defaultValue = "15",
			description = "Length of each of the two max probes (default: ${DEFAULT-VALUE}).")
	int probeSeconds;

	@Option(names = "--max-error-rate", defaultValue = "0.1",
			description = "Error rate in %% above which the soak fails (default: ${DEFAULT-VALUE}).")
	double maxErrorRate;

	@Option(names = "--max-growth", defaultValue = "10",
			description = "Growth in %% from the first to the last sample of heap after GC, RSS, file descriptors or threads that counts as drift (default: ${DEFAULT-VALUE}; small absolute changes never count, see docs/reliability.md).")
	double maxGrowth;

	@Option(names = "--max-p99-drift", defaultValue = "10",
			description = "Growth in %% of the p99 from the first to the last third of the soak that counts as drift (default: ${DEFAULT-VALUE}).")
	double maxP99Drift;

	private final PrintStream out;

	public SoakCommand(PrintStream out) {
		this.out = out;
	}

	@Override
	public Integer call() throws Exception {
		return new Soak(settings(), options(), out).run();
	}

	Soak.Options options() {
		int total = seconds != null ? seconds : minutes * 60;
		if (seconds == null && minutes < 1) {
			throw new LabException("invalid --minutes " + minutes + ": must be ≥ 1",
					"use e.g. --minutes 10, or --seconds 60 for a short soak");
		}
		if (total < 10) {
			throw new LabException("invalid --seconds " + total + ": a soak needs ≥ 10 s", "use e.g. --seconds 60");
		}
		if (interval < 5 || interval > total) {
			throw new LabException(
					"invalid --interval " + interval + ": must be 5.." + total + " s (the soak's length)",
					"use e.g. --interval 60, or --interval 10 for a short soak");
		}
		double rate = load.rate(0, false);
		LoadOptions.positive("--probe-seconds", probeSeconds, 1);
		load.threads(8);
		load.warmup(5);
		load.warmupMax(120);
		if (load.durationGiven()) {
			throw new LabException("soak has no --duration: its length is --minutes (or --seconds)",
					"use e.g. --minutes 10");
		}
		for (double limit : List.of(maxErrorRate, maxGrowth, maxP99Drift)) {
			if (limit < 0 || Double.isNaN(limit)) {
				throw new LabException("invalid limit " + limit
						+ ": --max-error-rate, --max-growth and --max-p99-drift " + "are percentages ≥ 0",
						"use e.g. --max-growth 10");
			}
		}
		return new Soak.Options(total, interval, probeSeconds, rate,
				new Verdict.Limits(maxErrorRate, maxGrowth, maxP99Drift), target.start());
	}

	Settings settings() {
		Path labHome = TargetOptions.labHome();
		Catalog catalog = Catalog.load(labHome);
		Map<String, String> props = target.properties();
		Settings.RUNNER_KEYS.forEach(props::remove);
		Path plans = Settings.plansDir(labHome);
		List<Target> targets = target.targetsGiven() ? target.resolveTargets(catalog, plans)
				: List.of(target.ofKind(catalog, "gateway", plans));
		if (targets.size() != 1) {
			throw new LabException("soak runs one target, not " + TargetOptions.joinTargets(targets),
					"pass one, e.g. --targets gateway");
		}
		Remote remote = target.remote();
		if (remote.active()) {
			throw new LabException(
					"soak runs the in-process load engine only (it reads the soaked process on this " + "machine)",
					"leave out --remote");
		}
		options(); // bad input fails before anything starts
		return new Settings(1, seconds != null ? seconds : minutes * 60, load.warmup(5), load.warmupMax(120),
				load.threads(8), load.rate(0, false), true, 0, 1, targets, props, labHome, target.resultsRoot(labHome),
				target.metricsHost(), target.metricsPort(), remote, false, null, false, catalog);
	}

}
