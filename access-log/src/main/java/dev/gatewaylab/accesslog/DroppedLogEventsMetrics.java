package dev.gatewaylab.accesslog;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * {@code gateway_log_events_dropped_total}: log events the full async queue dropped
 * ({@link CountingDiscardPolicy}).
 */
class DroppedLogEventsMetrics implements MeterBinder {

	@Override
	public void bindTo(MeterRegistry registry) {
		FunctionCounter
			.builder("gateway.log.events.dropped", CountingDiscardPolicy.class,
					(policy) -> CountingDiscardPolicy.dropped())
			.description("Log events dropped because the async logger's ring buffer was full (the caller never waits)")
			.register(registry);
	}

}
