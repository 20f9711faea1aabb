package dev.gatewaylab.runner.result;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * The CPU per request of stock Spring Cloud Gateway, of the lab's gateway and, when it
 * was measured, of the floor (Reactor Netty alone) — the chain from what a user gets, to
 * what the levers make of it, to the stack underneath — from one run's interleaved
 * repetitions (run.json "cpu_chain"). Each figure is mean ± CI95 over the repetitions;
 * the saving is paired per repetition (stock's repetition i − the gateway's repetition i,
 * measured in the same round).
 *
 * @param stock the stock target
 * @param gateway the gateway's target
 * @param floor the floor's target, or null when it was not measured
 * @param stockUs stock's process CPU µs per request
 * @param gatewayUs the gateway process's CPU µs per request
 * @param floorUs the floor process's, or null
 * @param savedUs stock − gateway, µs per request
 * @param stockCostlier in how many repetitions stock cost more than the gateway
 * @param gatewayOnlyFeatures the features the gateway runs and stock does not (from each
 * one's {@code /actuator/info}), or null when they could not be read
 */
@JsonPropertyOrder({ "stock", "gateway", "floor", "stock_us_per_request", "gateway_us_per_request",
		"floor_us_per_request", "saved_us_per_request", "repetitions_stock_costlier", "gateway_only_features" })
public record CpuChain(String stock, String gateway, String floor,
		@JsonProperty("stock_us_per_request") CpuCost stockUs,
		@JsonProperty("gateway_us_per_request") CpuCost gatewayUs,
		@JsonProperty("floor_us_per_request") CpuCost floorUs, @JsonProperty("saved_us_per_request") CpuCost savedUs,
		@JsonProperty("repetitions_stock_costlier") int stockCostlier,
		@JsonProperty("gateway_only_features") List<String> gatewayOnlyFeatures) {

	/** The saving as a share of stock's CPU per request, 0..1. */
	@JsonProperty("saved_share")
	public double savedShare() {
		return stockUs.mean() == 0 ? Double.NaN : savedUs.mean() / stockUs.mean();
	}

	/** How many repetitions the chain pairs. */
	@JsonProperty("repetitions")
	public int repetitions() {
		return savedUs.reps().length;
	}

}
