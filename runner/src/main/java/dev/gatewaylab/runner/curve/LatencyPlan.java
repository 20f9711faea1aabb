package dev.gatewaylab.runner.curve;

import dev.gatewaylab.runner.latency.OpenLoad;

/**
 * How a bench run judges and spreads its latency: the curve's rates as multiples of the
 * answer rate ({@code --latency-levels}), the success rate in % under which a target
 * makes the run INVALID ({@code --min-success}), how the latency generator spaces its
 * arrivals ({@code --latency-arrivals}) and how many keep-alive connections it opens per
 * target ({@code --latency-connections}).
 */
public record LatencyPlan(double[] levels, double minSuccess, OpenLoad.Arrivals arrivals, int connections) {

	public static final double[] DEFAULT_LEVELS = { 1, 2, 3, 4 };

	public static final double DEFAULT_MIN_SUCCESS = 99;

	/** Keep-alive connections the generator opens per target before the first arrival. */
	public static final int DEFAULT_CONNECTIONS = 32;

	LatencyPlan(double[] levels, double minSuccess) {
		this(levels, minSuccess, OpenLoad.Arrivals.UNIFORM, DEFAULT_CONNECTIONS);
	}

	/** The generator as run.json and the report describe it. */
	public String generator() {
		return OpenLoad.describe(connections, arrivals);
	}

	/** The generator for real runs. */
	public LatencyPhase.Generator realGenerator() {
		return (t, request, rate, seconds) -> OpenLoad.run(t.url(), request, rate, seconds, connections, arrivals);
	}

}
