package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.run.Settings;
import dev.gatewaylab.runner.run.TestSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report's method notes say the warm-up rule the run applied.
 */
class NotesTests {

	private static Settings settings(int warmupSeconds, boolean quick) {
		return TestSettings.bench().warmup(warmupSeconds).quick(quick).build();
	}

	@Test
	void theWarmUpNoteStatesTheRiseRuleAndTheCap() {
		List<String> notes = Notes.of(settings(5, false), List.of(), null);
		assertThat(notes.get(0)).startsWith("Warm-up (discarded) ran in windows of 5 s")
			.contains("less than 2 % of the wall time")
			.contains("its TPS had stopped rising (the last window no more than 5 % above the best earlier one")
			.contains("until 120 s had passed");
	}

	@Test
	void theEqualLoadNoteSaysJMeterGotOneWindowPerTarget() {
		List<String> notes = Notes.of(settings(5, false), List.of(), null);
		assertThat(notes).anyMatch((n) -> n.startsWith(
				"Latency at equal load (JMeter): after the throughput phase every target got the same open-model load "
						+ "for one window of 3 s"));
	}

	@Test
	void aQuickRunHasNoWarmUpNote() {
		assertThat(Notes.of(settings(2, true), List.of(), null)).noneMatch((n) -> n.startsWith("Warm-up"));
	}

}
