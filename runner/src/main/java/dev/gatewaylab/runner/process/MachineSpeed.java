package dev.gatewaylab.runner.process;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * How fast this machine's cores run right now: the CPU time (not wall time) one thread
 * needs for a fixed amount of arithmetic. On a shared virtual machine that figure moves
 * when the host gives the vCPU a slower or busier physical core — every process's CPU per
 * request and the TPS of every target move with it, which the lab cannot undo but can
 * notice: a run whose calibration moved by more than {@link #TOLERANCE_PERCENT} % says
 * so. Counting CPU time of the probing thread only, the figure does not depend on how
 * busy the machine is with the lab's own processes.
 */
public final class MachineSpeed {

	/**
	 * Calibrations of one run further apart than this (slowest over fastest) earn a
	 * warning.
	 */
	public static final double TOLERANCE_PERCENT = 15;

	private static final int ROUNDS = 3;

	private static final long STEPS = 20_000_000L;

	private static volatile long sink;

	private MachineSpeed() {
	}

	/**
	 * Milliseconds of thread CPU time for the fixed workload, the fastest of
	 * {@value #ROUNDS} rounds (interruptions only ever add to a round); NaN when the JVM
	 * cannot measure thread CPU time. About 30–60 ms of CPU.
	 */
	public static double probeMillis() {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		if (!threads.isCurrentThreadCpuTimeSupported()) {
			return Double.NaN;
		}
		double best = Double.POSITIVE_INFINITY;
		for (int round = 0; round < ROUNDS; round++) {
			long start = threads.getCurrentThreadCpuTime();
			sink += work(STEPS, round + 1);
			best = Math.min(best, (threads.getCurrentThreadCpuTime() - start) / 1e6);
		}
		return best;
	}

	/**
	 * xorshift: a chain of dependent ALU operations the JIT can neither vectorise nor
	 * drop.
	 */
	static long work(long steps, long seed) {
		long x = seed;
		for (long i = 0; i < steps; i++) {
			x ^= x << 13;
			x ^= x >>> 7;
			x ^= x << 17;
		}
		return x;
	}

	/**
	 * How far apart the slowest and the fastest calibration are, in % of the fastest (NaN
	 * with fewer than two).
	 */
	public static double spreadPercent(double[] probes) {
		double min = Double.POSITIVE_INFINITY;
		double max = Double.NEGATIVE_INFINITY;
		int n = 0;
		for (double p : probes) {
			if (!Double.isNaN(p)) {
				min = Math.min(min, p);
				max = Math.max(max, p);
				n++;
			}
		}
		return n < 2 ? Double.NaN : 100 * (max - min) / min;
	}

}
