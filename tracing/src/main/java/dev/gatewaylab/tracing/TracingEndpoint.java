package dev.gatewaylab.tracing;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * {@code /actuator/tracing} on the management port (exposed whenever tracing is on): the
 * sampling probability in use and where spans go; {@code POST {"samplingProbability":
 * 0.1}} changes the probability at once, without a restart — how the lab's tracing
 * experiment switches between 0 %, 10 % and 100 % in one JVM. A value outside 0..1 is
 * 400.
 */
@Endpoint(id = TracingEndpoint.ID)
public class TracingEndpoint {

	static final String ID = "tracing";

	private final AdjustableSampler sampler;

	private final String zipkinEndpoint;

	TracingEndpoint(AdjustableSampler sampler, String zipkinEndpoint) {
		this.sampler = sampler;
		this.zipkinEndpoint = zipkinEndpoint;
	}

	@ReadOperation
	public Map<String, Object> state() {
		Map<String, Object> state = new LinkedHashMap<>();
		state.put("samplingProbability", this.sampler.probability());
		state.put("zipkinEndpoint", this.zipkinEndpoint);
		return state;
	}

	@WriteOperation
	public Map<String, Object> sample(float samplingProbability) {
		try {
			this.sampler.probability(samplingProbability);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidEndpointRequestException(ex.getMessage(), ex.getMessage());
		}
		return state();
	}

}
