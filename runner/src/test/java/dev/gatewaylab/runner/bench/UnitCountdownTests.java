package dev.gatewaylab.runner.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gatewaylab.runner.run.Progress;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** An experiment's remaining time as its units finish, on a stand-in clock. */
class UnitCountdownTests {

	private final AtomicLong now = new AtomicLong(TimeUnit.SECONDS.toNanos(1000));

	private void advance(double seconds) {
		this.now.addAndGet(Math.round(seconds * 1e9));
	}

	@Test
	void aSlowWarmUpHoldsTheLineAndTheUnitsLeftArePlannedAtTheFinishedOnesPace() {
		// three units planned at 100 s each, 20 s of which measure
		try (Progress p = new Progress(new PrintStream(new ByteArrayOutputStream()), 300, this.now::get)) {
			UnitCountdown c = new UnitCountdown(p, this.now::get, 3, 100, 20);
			c.unitStarts();
			assertThat(p.secondsLeft()).isEqualTo(300);
			// the warm-up ran to its cap: the plan's end is 150 s away,
			// but this unit's measurement and two more units follow
			advance(150);
			assertThat(p.secondsLeft()).isEqualTo(20 + 2 * 100);
			c.measurementStarts();
			assertThat(p.secondsLeft()).isEqualTo(220);
			advance(20);
			assertThat(p.secondsLeft()).isEqualTo(200);
			c.unitEnds();
			c.unitStarts(); // the first unit took 170 s: two more at that pace
			assertThat(p.secondsLeft()).isEqualTo(340);
			advance(60);
			c.measurementStarts(); // a quick warm-up: this measurement and one unit
			assertThat(p.secondsLeft()).isEqualTo(20 + 170);
			advance(20);
			c.unitEnds();
			c.unitStarts(); // (170 + 80) / 2
			assertThat(p.secondsLeft()).isEqualTo(125);
			advance(100);
			c.measurementStarts();
			advance(20);
			c.unitEnds();
			assertThat(p.secondsLeft()).isZero();
		}
	}

}
