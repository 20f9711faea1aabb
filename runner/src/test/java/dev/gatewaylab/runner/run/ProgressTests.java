package dev.gatewaylab.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The remaining time the progress line shows, on a stand-in clock. */
class ProgressTests {

	private final AtomicLong now = new AtomicLong(TimeUnit.SECONDS.toNanos(1000));

	private Progress progress(long plannedSeconds) {
		return new Progress(new PrintStream(new ByteArrayOutputStream()), plannedSeconds, now::get);
	}

	private void advance(double seconds) {
		now.addAndGet(Math.round(seconds * 1e9));
	}

	@Test
	void withoutAReplanTheRemainingTimeCountsDownToTheStartsPlanAndStopsAtZero() {
		try (Progress p = progress(100)) {
			assertThat(p.secondsLeft()).isEqualTo(100);
			advance(0.5);
			assertThat(p.secondsLeft()).isEqualTo(100); // a started second counts
			advance(29.5);
			assertThat(p.secondsLeft()).isEqualTo(70);
			advance(200);
			assertThat(p.secondsLeft()).isZero();
		}
	}

	@Test
	void aReplanMovesThePlannedEndAndAnOverrunningStageHoldsAtWhatFollowsIt() {
		try (Progress p = progress(100)) {
			// the warm-up ran 150 s instead of 60: 0:00 left by the start's plan
			advance(150);
			assertThat(p.secondsLeft()).isZero();
			// measurement 40 s, then 50 s of open-model phases
			p.replan(90, 50);
			assertThat(p.secondsLeft()).isEqualTo(90);
			advance(30);
			assertThat(p.secondsLeft()).isEqualTo(60);
			// the measurement overruns by 25 s: what follows it is still to come
			advance(35);
			assertThat(p.secondsLeft()).isEqualTo(50);
			advance(20);
			assertThat(p.secondsLeft()).isEqualTo(50);
			// the open-model phases begin, their windows known: 62 s, the last stage
			p.replan(62, 0);
			advance(60);
			assertThat(p.secondsLeft()).isEqualTo(2);
			advance(10);
			assertThat(p.secondsLeft()).isZero();
		}
	}

	@Test
	void theRemainingSecondsAreTheLaterOfThePlannedEndAndWhatFollowsTheStage() {
		long s = TimeUnit.SECONDS.toNanos(1);
		assertThat(Progress.secondsLeft(0, 10 * s, 0)).isEqualTo(10);
		assertThat(Progress.secondsLeft(0, 10 * s, 12)).isEqualTo(12);
		assertThat(Progress.secondsLeft(s / 10, 10 * s, 0)).isEqualTo(10);
		assertThat(Progress.secondsLeft(10 * s, 10 * s, 0)).isZero();
		assertThat(Progress.secondsLeft(11 * s, 10 * s, 3)).isEqualTo(3);
		assertThat(Progress.secondsLeft(11 * s, 10 * s, 0)).isZero();
	}

}
