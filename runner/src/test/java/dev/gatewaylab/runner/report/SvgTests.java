package dev.gatewaylab.runner.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SvgTests {

	@Test
	void aBarWithoutAValueIsLeftOutAndTheAxisFollowsTheOthers() {
		String all = Svg.groupedBars("t", "ms", List.of("gateway", "direct"), List.of("p50", "p99"),
				new double[][] { { 1, 4 }, { 1, 2 } });
		String gap = Svg.groupedBars("t", "ms", List.of("gateway", "direct"), List.of("p50", "p99"),
				new double[][] { { 1, Double.NaN }, { 1, 2 } });
		assertThat(gap).doesNotContain("NaN");
		assertThat(count(all, "<rect")).isEqualTo(count(gap, "<rect") + 1);
	}

	private static int count(String s, String part) {
		return s.split(part, -1).length - 1;
	}

}
