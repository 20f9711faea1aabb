package dev.gatewaylab.tracing;

import brave.sampler.Sampler;

/**
 * Brave's probability sampler ({@code Sampler.create}: never, always, or a counting
 * sampler that keeps exactly that share of each 100 traces) whose probability can be
 * changed while the app runs ({@link TracingEndpoint}). Applies to requests that arrive
 * without a sampling decision; a request whose {@code traceparent} says "sampled" (or
 * "not sampled") keeps that decision, so one trace is whole across the apps.
 */
public final class AdjustableSampler extends Sampler {

	private volatile Sampler delegate;

	private volatile float probability;

	public AdjustableSampler(float probability) {
		this.delegate = Sampler.create(check(probability));
		this.probability = probability;
	}

	@Override
	public boolean isSampled(long traceId) {
		return this.delegate.isSampled(traceId);
	}

	public float probability() {
		return this.probability;
	}

	public void probability(float probability) {
		this.delegate = Sampler.create(check(probability));
		this.probability = probability;
	}

	static float check(float probability) {
		if (!(probability >= 0.0f && probability <= 1.0f)) {
			throw new IllegalArgumentException(
					"samplingProbability must be between 0.0 and 1.0, was " + probability + " (0.1 = 10 %)");
		}
		return probability;
	}

}
