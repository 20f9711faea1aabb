package dev.gatewaylab.runner.result;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * How the gateway's CPU per request splits when the floor (Reactor Netty alone, the stack
 * under the gateway) was measured in the same run: the floor's own cost, and what Spring
 * Cloud Gateway and the lab's features add on top of it (gateway − floor). Every figure
 * is paired per repetition (repetition i of the gateway with repetition i of the floor,
 * the two measured in the same interleaved round), then mean ± CI95 over the repetitions
 * (run.json "cpu_split").
 *
 * @param gateway the gateway's target
 * @param floor the floor's target
 * @param gatewayUs the gateway process's CPU µs per request
 * @param floorUs the floor process's CPU µs per request
 * @param onTopUs gateway − floor, µs per request
 * @param gatewayOverFloor gateway ÷ floor
 */
@JsonPropertyOrder({ "gateway", "floor", "gateway_us_per_request", "floor_us_per_request", "on_top_us_per_request",
		"gateway_over_floor" })
public record CpuSplit(String gateway, String floor, @JsonProperty("gateway_us_per_request") CpuCost gatewayUs,
		@JsonProperty("floor_us_per_request") CpuCost floorUs, @JsonProperty("on_top_us_per_request") CpuCost onTopUs,
		@JsonProperty("gateway_over_floor") CpuCost gatewayOverFloor) {

	/** The floor's share of the gateway's CPU per request, 0..1. */
	@JsonProperty("floor_share")
	public double floorShare() {
		return gatewayUs.mean() == 0 ? Double.NaN : floorUs.mean() / gatewayUs.mean();
	}
}
