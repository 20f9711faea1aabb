package dev.gatewaylab.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gatewaylab.runner.result.EngineResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnginesTests {

	private static EngineResult engine(String name, long samples) {
		return new EngineResult(name, samples, 0, Map.of("gateway", samples), null, null, "");
	}

	@Test
	void warnsAboutAnEngineWellBelowTheOthersOnly() {
		List<String> w = Engines.warnings(List.of(engine("a", 1000), engine("b", 950), engine("c", 500)), List.of());
		assertThat(w).hasSize(1);
		assertThat(w.get(0)).startsWith("engine c sent 500 samples, 51 % of the other engines' mean (975)");
		assertThat(Engines.warnings(List.of(engine("a", 1000), engine("b", 800)), List.of())).isEmpty();
		// said as lost
		assertThat(Engines.warnings(List.of(engine("a", 1000), engine("b", 10)), List.of("b"))).isEmpty();
		assertThat(Engines.warnings(List.of(engine("a", 1000)), List.of())).isEmpty();
		assertThat(Engines.warnings(null, List.of())).isEmpty();
	}

	@Test
	void resultsAddEachEnginesSamplesPerTargetWithItsCpuAndClockOffset() {
		Engines e = new Engines(List.of("127.0.0.2", "127.0.0.3:1199"));
		e.samples("gateway", Map.of("127.0.0.2", 300L, "127.0.0.3:1199", 100L));
		e.samples("gateway", Map.of("127.0.0.2", 200L, "127.0.0.3:1199", 100L));
		e.samples("direct", Map.of("127.0.0.2", 100L, "127.0.0.3:1199", 200L));
		e.usage(Map.of(Engines.processName("127.0.0.2"),
				new dev.gatewaylab.runner.process.ProcSampler.Usage(40, 2, 100)));
		e.usage(Map.of(Engines.processName("127.0.0.2"),
				new dev.gatewaylab.runner.process.ProcSampler.Usage(60, 3, 100)));
		ClockOffsets clocks = new ClockOffsets(List.of("127.0.0.2", "127.0.0.3:1199"));
		clocks.sample("127.0.0.3:1199-tg 1-1", 15_000, 10_000);

		List<EngineResult> r = e.results(List.of(), clocks);

		assertThat(r).extracting(EngineResult::engine).containsExactly("127.0.0.2", "127.0.0.3:1199");
		assertThat(r.get(0).samples()).isEqualTo(600);
		assertThat(r.get(0).samplesPerTarget()).containsEntry("gateway", 500L).containsEntry("direct", 100L);
		assertThat(r.get(0).sharePercent()).isEqualTo(60.0);
		assertThat(r.get(0).cpuPercent()).isEqualTo(50.0);
		assertThat(r.get(0).clockOffsetMs()).isNull();
		assertThat(r.get(1).cpuPercent()).isNull();
		assertThat(r.get(1).clockOffsetMs()).isEqualTo(5000L);
		assertThat(new Engines(List.of()).results(List.of(), clocks)).isNull();
	}

}
