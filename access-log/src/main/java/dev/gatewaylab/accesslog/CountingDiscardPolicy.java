package dev.gatewaylab.accesslog;

import java.util.concurrent.atomic.LongAdder;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.async.AsyncQueueFullPolicy;
import org.apache.logging.log4j.core.async.DiscardingAsyncQueueFullPolicy;
import org.apache.logging.log4j.core.async.EventRoute;
import org.apache.logging.log4j.util.PropertiesUtil;

/**
 * Log4j2's Discard policy for a full async ring buffer (the caller, an event loop, never
 * waits: events at or below {@code log4j2.discardThreshold} are dropped), counting what
 * it drops for the {@code gateway_log_events_dropped_total} metric. Named in
 * {@code log4j2.component.properties}; Log4j2 creates it with its no-argument
 * constructor, hence the static counter.
 */
public final class CountingDiscardPolicy implements AsyncQueueFullPolicy {

	private static final LongAdder dropped = new LongAdder();

	private final DiscardingAsyncQueueFullPolicy delegate = new DiscardingAsyncQueueFullPolicy(Level
		.toLevel(PropertiesUtil.getProperties().getStringProperty("log4j2.discardThreshold", "INFO"), Level.INFO));

	@Override
	public EventRoute getRoute(long backgroundThreadId, Level level) {
		EventRoute route = this.delegate.getRoute(backgroundThreadId, level);
		if (route == EventRoute.DISCARD) {
			dropped.increment();
		}
		return route;
	}

	/** Events dropped since start. */
	public static long dropped() {
		return dropped.sum();
	}

}
