package dev.gatewaylab.runner.bench;

/**
 * How a bench run judges and spreads its latency: the curve's rates as multiples of the
 * answer rate ({@code --latency-levels}) and the success rate in % under which a target
 * makes the run INVALID ({@code --min-success}).
 */
record LatencyPlan(double[] levels, double minSuccess) {

	static final double[] DEFAULT_LEVELS = { 0.5, 1, 1.3, 1.6 };

	static final double DEFAULT_MIN_SUCCESS = 99;

}
