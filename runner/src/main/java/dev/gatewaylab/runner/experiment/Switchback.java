package dev.gatewaylab.runner.experiment;

import dev.gatewaylab.runner.process.ProcSampler;
import dev.gatewaylab.runner.run.LabException;
import dev.gatewaylab.runner.run.Load;
import dev.gatewaylab.runner.run.Target;
import dev.gatewaylab.runner.stats.Aggregate;
import dev.gatewaylab.runner.stats.JtlReader;
import dev.gatewaylab.runner.stats.Timeline;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A switchback measurement: one closed-model run against one JVM while the runner flips a
 * run-time switch of that JVM ({@link Toggle}: the access log on and off) in an on,
 * off-off, on-on, … schedule, then splits the samples (by start time) and every process's
 * CPU (read from /proc at each switch) by arm. Both arms share the JVM, its JIT state and
 * the machine's moment, so the ± 5 % that separates two warmed JVMs of the same build,
 * and the machine's own drifts, cancel in the on ÷ off ratio; the balanced schedule
 * cancels a linear drift too. Before the measured part a prelude (off, then on;
 * discarded) runs both code paths, so neither arm pays a JIT deoptimisation inside the
 * measurement.
 */
public final class Switchback {

	/**
	 * One arm's share: its samples (TPS over its own seconds), CPU, latency timeline,
	 * [start, end) ms of segments.
	 */
	public record Arm(Aggregate samples, Map<String, ProcSampler.Usage> usage, double[] timeline, long[][] segments) {
	}

	public record Result(Arm on, Arm off, int switches, double segmentSeconds, long lastSampleMillis) {
	}

	/**
	 * One boundary of the schedule: the switch was asked for at {@code fromMillis} (CPU
	 * ticks {@code ticksBefore}) and had taken effect at {@code atMillis} (ticks
	 * {@code ticks}); the arm from then on. What started in between belongs to neither
	 * arm. A boundary without a switch (the measured start and end) has both times equal.
	 */
	record Boundary(long fromMillis, long atMillis, boolean on, Map<String, Long> ticksBefore, long[] machineBefore,
			Map<String, Long> ticks, long[] machine) {

		Boundary(long atMillis, boolean on, Map<String, Long> ticks, long[] machine) {
			this(atMillis, atMillis, on, ticks, machine, ticks, machine);
		}
	}

	private final Toggle toggle;

	public Switchback(Toggle toggle) {
		this.toggle = toggle;
	}

	/**
	 * The measured schedule for {@code seconds}: segment length L with {@code seconds} =
	 * 4·k·L, k = max(1, ⌊seconds / 8⌋) — on for L, then 2L off, 2L on, …, the last one L:
	 * A B B A repeated, so both arms get the same time and sit, on average, at the middle
	 * of the run (a linear drift favours neither).
	 */
	public static double segmentSeconds(int seconds) {
		long k = Math.max(1, seconds / 8);
		return seconds / (4.0 * k);
	}

	/**
	 * Offsets (s, from the measured start) at which the arm flips: L, 3L, 5L, … before
	 * {@code seconds}.
	 */
	static List<Double> switchOffsets(int seconds) {
		double l = segmentSeconds(seconds);
		List<Double> out = new ArrayList<>();
		for (double at = l; at < seconds - 1e-9; at += 2 * l) {
			out.add(at);
		}
		return out;
	}

	/**
	 * Runs the measurement; the JTL holds every sample of the run (prelude included), the
	 * arms only the measured.
	 */
	public Result run(Load load, Target t, int seconds, int threads, Path jtl, Map<String, Long> pids)
			throws IOException, InterruptedException {
		double l = segmentSeconds(seconds);
		List<Double> offsets = switchOffsets(seconds);
		CountDownLatch firstSample = new CountDownLatch(1);
		List<Boundary> boundaries = Collections.synchronizedList(new ArrayList<>());
		AtomicReference<RuntimeException> failed = new AtomicReference<>();
		Thread scheduler = new Thread(() -> {
			try {
				if (!firstSample.await(30, TimeUnit.SECONDS)) {
					return;
				}
				long t0 = System.currentTimeMillis();
				toggle.set(t, false); // prelude: off for L …
				sleepUntil(t0 + Math.round(l * 1000));
				toggle.set(t, true); // … then on for L, both discarded
				long m0 = t0 + Math.round(2 * l * 1000);
				sleepUntil(m0);
				boundaries.add(reading(true, pids, null));
				boolean on = true;
				for (double offset : offsets) {
					sleepUntil(m0 + Math.round(offset * 1000));
					Boundary asked = reading(on, pids, null);
					on = !on;
					toggle.set(t, on);
					boundaries.add(reading(on, pids, asked));
				}
				sleepUntil(m0 + seconds * 1000L);
				boundaries.add(reading(on, pids, null)); // the end
				toggle.set(t, true);
			}
			catch (RuntimeException e) {
				failed.set(e);
				restore(t);
			}
			catch (InterruptedException e) {
				restore(t);
				Thread.currentThread().interrupt();
			}
		}, "lab-switchback");
		scheduler.setDaemon(true);
		scheduler.start();
		// The run covers the prelude (2 L),
		// the measured seconds and a margin for the engine's start.
		int runSeconds = (int) Math.ceil(2 * l + seconds) + 5;
		try {
			load.run(t, runSeconds, threads, jtl, r -> firstSample.countDown());
		}
		finally {
			scheduler.join(TimeUnit.SECONDS.toMillis(runSeconds + 30));
			if (scheduler.isAlive()) {
				scheduler.interrupt();
			}
		}
		if (failed.get() != null) {
			throw failed.get();
		}
		if (boundaries.size() < 2) {
			throw new LabException("the switchback run of " + t.name() + " ended before its measured part (no sample "
					+ "within 30 s, or the run was cut short)", "check that " + t.url() + " answers");
		}
		Result result = split(jtl, boundaries, l, new ArrayList<>(pids.keySet()));
		long end = boundaries.get(boundaries.size() - 1).fromMillis();
		if (result.lastSampleMillis() < end - 500) {
			throw new LabException(
					"the load of " + t.name() + "'s switchback run stopped " + (end - result.lastSampleMillis())
							+ " ms "
							+ "before its schedule ended: the last segment would count missing requests as a lower TPS",
					"the engine started late on a busy machine; rerun, or check what else runs");
		}
		return result;
	}

	/**
	 * After a failure: the service back to the arm it was started in, as far as it still
	 * answers.
	 */
	private void restore(Target t) {
		try {
			toggle.set(t, true);
		}
		catch (RuntimeException ignored) { // the failure that brought us here is reported
		}
	}

	/**
	 * Splits a run's samples and CPU by arm along the boundaries (the last one is the
	 * end, not a switch).
	 */
	static Result split(Path jtl, List<Boundary> boundaries, double segmentSeconds, List<String> processes)
			throws IOException {
		Aggregate on = new Aggregate();
		Aggregate off = new Aggregate();
		Timeline onLine = new Timeline();
		Timeline offLine = new Timeline();
		long[] last = { Long.MIN_VALUE };
		JtlReader.read(jtl, sample -> {
			last[0] = Math.max(last[0], sample.timeStamp());
			Boolean armOn = armAt(boundaries, sample.timeStamp());
			if (armOn != null) {
				(armOn ? on : off).add(sample);
				(armOn ? onLine : offLine).add(sample);
			}
		});
		double[] seconds = new double[2];
		List<List<long[]>> segments = List.of(new ArrayList<>(), new ArrayList<>());
		Map<String, long[]> ticks = new LinkedHashMap<>(); // process → [on, off]
		long[] machineBusy = new long[2];
		long[] machineTotal = new long[2];
		for (int i = 0; i + 1 < boundaries.size(); i++) {
			Boundary from = boundaries.get(i);
			Boundary to = boundaries.get(i + 1);
			int arm = from.on() ? 0 : 1;
			// a segment runs from one switch's effect to the next switch's request
			seconds[arm] += (to.fromMillis() - from.atMillis()) / 1000.0;
			segments.get(arm).add(new long[] { from.atMillis(), to.fromMillis() });
			for (String p : processes) {
				Long a = from.ticks().get(p);
				Long b = to.ticksBefore().get(p);
				if (a != null && b != null && a >= 0 && b >= a) {
					ticks.computeIfAbsent(p, k -> new long[2])[arm] += b - a;
				}
			}
			if (from.machine() != null && to.machineBefore() != null) {
				machineBusy[arm] += to.machineBefore()[0] - from.machine()[0];
				machineTotal[arm] += to.machineBefore()[1] - from.machine()[1];
			}
		}
		on.windowSeconds(seconds[0]);
		off.windowSeconds(seconds[1]);
		return new Result(
				new Arm(on, usage(ticks, 0, seconds[0], machineBusy[0], machineTotal[0]), onLine.meanMs(),
						segments.get(0).toArray(long[][]::new)),
				new Arm(off, usage(ticks, 1, seconds[1], machineBusy[1], machineTotal[1]), offLine.meanMs(),
						segments.get(1).toArray(long[][]::new)),
				boundaries.size() - 2, segmentSeconds, last[0]);
	}

	/**
	 * The arm in force at {@code ts}: the one set by the last boundary that had taken
	 * effect by then; null before the measured start, from the end on, and while a switch
	 * was under way (it may or may not have applied yet).
	 */
	static Boolean armAt(List<Boundary> boundaries, long ts) {
		if (ts < boundaries.get(0).atMillis() || ts >= boundaries.get(boundaries.size() - 1).fromMillis()) {
			return null;
		}
		Boolean on = null;
		for (Boundary b : boundaries) {
			if (ts < b.fromMillis()) {
				break;
			}
			on = ts < b.atMillis() ? null : b.on();
		}
		return on;
	}

	private static Map<String, ProcSampler.Usage> usage(Map<String, long[]> ticks, int arm, double seconds,
			long machineBusy, long machineTotal) {
		Map<String, ProcSampler.Usage> out = new LinkedHashMap<>();
		ticks.forEach((p, t) -> {
			double cpuSeconds = t[arm] / 100.0; // USER_HZ
			out.put(p, new ProcSampler.Usage(seconds > 0 ? 100 * cpuSeconds / seconds : Double.NaN, cpuSeconds, -1));
		});
		out.put("machine", new ProcSampler.Usage(machineTotal > 0 ? 100.0 * machineBusy / machineTotal : Double.NaN,
				Double.NaN, -1));
		return out;
	}

	/**
	 * Reads the clock and the CPU ticks now: a boundary of its own, or the effect of a
	 * switch {@code asked} for.
	 */
	private static Boundary reading(boolean on, Map<String, Long> pids, Boundary asked) {
		long now = System.currentTimeMillis();
		Map<String, Long> ticks = new LinkedHashMap<>();
		pids.forEach((name, pid) -> ticks.put(name, ProcSampler.cpuTicks(pid)));
		long[] machine = ProcSampler.machineTicks();
		return asked == null ? new Boundary(now, on, ticks, machine)
				: new Boundary(asked.fromMillis(), now, on, asked.ticks(), asked.machine(), ticks, machine);
	}

	private static void sleepUntil(long epochMillis) throws InterruptedException {
		long wait = epochMillis - System.currentTimeMillis();
		if (wait > 0) {
			Thread.sleep(wait);
		}
	}

}
