package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.run.Progress;
import java.util.function.LongSupplier;

/**
 * The progress line's remaining time for an experiment made of like units (per variant
 * and repetition: a restart, a warm-up, a measurement), planned again as units finish:
 * the units left at the mean time the finished ones took, the plan's figure until one has
 * finished. While a unit's restart and warm-up run ("warm until steady" may take longer
 * than planned) the line holds at least its measurement and the units after it.
 */
final class UnitCountdown {

	private static final double NANOS_PER_SECOND = 1e9;

	private final Progress progress;

	private final LongSupplier nanoTime;

	private final long plannedUnitSeconds;

	private final long measureSeconds;

	private int left;

	private int done;

	private long spentNanos;

	private long unitStartNanos;

	/**
	 * @param units how many units the run has
	 * @param plannedUnitSeconds one unit's planning figure
	 * @param measureSeconds one unit's measurement, which follows its warm-up
	 */
	UnitCountdown(Progress progress, LongSupplier nanoTime, int units, long plannedUnitSeconds, long measureSeconds) {
		this.progress = progress;
		this.nanoTime = nanoTime;
		this.left = units;
		this.plannedUnitSeconds = plannedUnitSeconds;
		this.measureSeconds = measureSeconds;
	}

	/** A unit begins with its restart and warm-up. */
	void unitStarts() {
		this.unitStartNanos = this.nanoTime.getAsLong();
		long unit = unitSeconds();
		this.progress.replan(this.left * unit, this.measureSeconds + (this.left - 1) * unit);
	}

	/** The unit's warm-up is over; its measurement begins. */
	void measurementStarts() {
		long after = (this.left - 1) * unitSeconds();
		this.progress.replan(this.measureSeconds + after, after);
	}

	/** The unit is over. */
	void unitEnds() {
		this.spentNanos += this.nanoTime.getAsLong() - this.unitStartNanos;
		this.done++;
		this.left--;
	}

	/** A unit's expected length: the finished ones' mean, else the plan's figure. */
	long unitSeconds() {
		return (this.done == 0) ? this.plannedUnitSeconds : Math.round(this.spentNanos / NANOS_PER_SECOND / this.done);
	}

}
