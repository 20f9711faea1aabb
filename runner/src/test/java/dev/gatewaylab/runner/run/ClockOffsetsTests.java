package dev.gatewaylab.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClockOffsetsTests {

	@Test
	void theOffsetIsTheLargestLeadOfAnEnginesEndTimeOverItsArrival() {
		ClockOffsets c = new ClockOffsets(List.of("127.0.0.2", "127.0.0.3:1199"));
		long now = 1_700_000_000_000L;
		// engine clock 5 s ahead: samples arrive 3, 800 and 0.4 s...
		// after they ended (batching), on the runner's clock
		c.sample("127.0.0.3:1199-tg 1-1", now + 5000, now + 3);
		c.sample("127.0.0.3:1199-tg 1-2", now + 5000 + 200, now + 1000);
		c.sample("127.0.0.3:1199-tg 1-1", now + 5000 + 1000, now + 1001);
		// engine in sync: arrivals 2..900 ms later
		c.sample("127.0.0.2-tg 1-1", now, now + 2);
		c.sample("127.0.0.2-tg 1-1", now + 100, now + 1000);
		c.sample("nobody-tg 1-1", now + 99_000, now); // not an engine of this run
		assertThat(c.offsets()).containsEntry("127.0.0.3:1199", 4999L).containsEntry("127.0.0.2", -2L);
		assertThat(c.warnings()).singleElement()
			.asString()
			.startsWith("engine 127.0.0.3:1199's clock is +5.0 s off the runner's (estimated from 3 samples)");
	}

	@Test
	void behindClocksAndSilentEnginesToo() {
		ClockOffsets c = new ClockOffsets(List.of("a", "b"));
		c.sample("a-tg 1-1", 10_000, 12_500);
		assertThat(c.offset("a")).isEqualTo(-2500L);
		assertThat(c.offsets()).containsEntry("b", null);
		assertThat(c.warnings()).singleElement().asString().contains("-2.5 s off");
		// a better (shorter) delivery: the estimate tightens
		c.sample("a-tg 1-1", 12_000, 12_200);
		assertThat(c.offset("a")).isEqualTo(-200L);
		assertThat(c.warnings()).isEmpty();
	}

}
