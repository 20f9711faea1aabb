package dev.gatewaylab.runner.result;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A warm-up's window log: what held the target back, and run.json with and without the
 * log (runs written before it).
 */
class WarmupResultTests {

	@TempDir
	Path tmp;

	private static WarmupWindow window(String jvm, boolean compiling, boolean moving) {
		return new WarmupWindow(5, 6000, 300.0, jvm, 15, compiling, moving);
	}

	@Test
	void saysWhichRuleHeldTheTargetBackAndWhichJvmCompiled() {
		WarmupResult w = new WarmupResult(50, 5, true, 1000.0, 9000.0, 20.0, "steady: ...",
				List.of(window("gateway", true, true), window("runner", true, false), window("gateway", true, false),
						window(null, false, true), window("gateway", false, false)));
		assertThat(w.heldBack())
			.isEqualTo("still compiling after 3 window(s) (gateway 2, runner 1); throughput still moving after 2");
		assertThat(new WarmupResult(10, 2, true, 1.0, 2.0, 0.0, "steady", List.of(window("gateway", false, false)))
			.heldBack()).isEmpty();
		assertThat(new WarmupResult(10, 2, true, 1.0, 2.0, 0.0, "steady").windowLog()).isEmpty();
	}

	@Test
	void theWindowLogGoesToRunJsonAndAnOlderRunJsonReadsWithoutIt() throws Exception {
		WarmupResult w = new WarmupResult(10, 2, true, 1.0, 2.0, 0.0, "steady",
				List.of(window("gateway", true, false), new WarmupWindow(5, 7000, null, null, 5, false, false)));
		Path file = tmp.resolve("warmup.json");
		Json.write(file, w);
		String json = Files.readString(file);
		assertThat(json).contains("\"window_log\"", "\"busiest_jvm\" : \"gateway\"", "\"tps_moving\" : false",
				"\"since_s\" : 15.0");
		assertThat(Json.read(file, WarmupResult.class)).isEqualTo(w);

		Files.writeString(file, json.substring(0, json.indexOf(",\n  \"window_log\"")) + "\n}");
		WarmupResult older = Json.read(file, WarmupResult.class);
		assertThat(older.windowLog()).isEmpty();
		assertThat(older.reason()).isEqualTo("steady");
	}

}
