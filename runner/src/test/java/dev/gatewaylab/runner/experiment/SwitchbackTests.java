package dev.gatewaylab.runner.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.gatewaylab.runner.experiment.Switchback.Boundary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The switchback's schedule and how it splits samples and CPU between the two arms. */
class SwitchbackTests {

	@Test
	void theScheduleGivesBothArmsTheSameTimeAndBalancesALinearDrift() {
		// 20 s: on [0,2.5) off [2.5,7.5) on [7.5,12.5) off [12.5,17.5) on [17.5,20) —
		// A B B A A B B A
		assertThat(Switchback.segmentSeconds(20)).isEqualTo(2.5);
		assertThat(Switchback.switchOffsets(20)).containsExactly(2.5, 7.5, 12.5, 17.5);
		// short runs still get both arms in the same pattern:
		// 2 s → on [0,0.5) off [0.5,1.5) on [1.5,2)
		assertThat(Switchback.switchOffsets(2)).containsExactly(0.5, 1.5);
		assertThat(Switchback.segmentSeconds(40)).isEqualTo(2.0);
		for (int seconds : new int[] { 2, 4, 8, 12, 20, 40 }) {
			List<Double> at = new ArrayList<>(Switchback.switchOffsets(seconds));
			at.add(0, 0.0);
			at.add((double) seconds);
			double on = 0;
			double off = 0;
			double driftOn = 0;
			double driftOff = 0;
			for (int i = 0; i + 1 < at.size(); i++) {
				double len = at.get(i + 1) - at.get(i);
				double mid = (at.get(i) + at.get(i + 1)) / 2;
				if (i % 2 == 0) {
					on += len;
					driftOn += len * mid;
				}
				else {
					off += len;
					driftOff += len * mid;
				}
			}
			assertThat(on).as("%d s", seconds).isEqualTo(off);
			// A B B A …: both arms sit, on average, at the middle of the run
			assertThat(driftOn / on).as("%d s", seconds).isCloseTo(driftOff / off, within(1e-9));
		}
	}

	@Test
	void samplesAreSplitByStartTimeAndCpuByTheSegmentsBetweenSwitches(@TempDir Path dir) throws Exception {
		// measured part 10:00.000–10:04.000; on [0,1 s) off [1,3 s) on [3,4 s)
		long t0 = 1_800_000_000_000L;
		List<Boundary> boundaries = List.of(new Boundary(t0, true, Map.of("gateway", 1000L), new long[] { 100, 200 }),
				new Boundary(t0 + 1000, false, Map.of("gateway", 1060L), new long[] { 160, 400 }),
				new Boundary(t0 + 3000, true, Map.of("gateway", 1160L), new long[] { 260, 800 }),
				new Boundary(t0 + 4000, true, Map.of("gateway", 1220L), new long[] { 320, 1000 }));
		StringBuilder jtl = new StringBuilder("timeStamp,elapsed,label,responseCode,responseMessage,threadName,"
				+ "dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect\n");
		row(jtl, t0 - 10, 1, true); // prelude: left out
		for (int i = 0; i < 600; i++) { // on: 600 in the first second, 300 in the last
			row(jtl, t0 + i, 2, true);
		}
		for (int i = 0; i < 300; i++) {
			row(jtl, t0 + 3000 + i * 3, 2, true);
		}
		for (int i = 0; i < 1000; i++) { // off: 1,000 in two seconds, one failed
			row(jtl, t0 + 1000 + i * 2, 1, i != 7);
		}
		row(jtl, t0 + 4000, 1, true); // after the end: left out
		Path file = dir.resolve("rep.jtl");
		Files.writeString(file, jtl);

		Switchback.Result r = Switchback.split(file, boundaries, 1, List.of("gateway"));

		assertThat(r.switches()).isEqualTo(2);
		assertThat(r.on().segments()).isEqualTo(new long[][] { { t0, t0 + 1000 }, { t0 + 3000, t0 + 4000 } });
		assertThat(r.off().segments()).isEqualTo(new long[][] { { t0 + 1000, t0 + 3000 } });
		assertThat(r.on().samples().samples()).isEqualTo(900);
		assertThat(r.on().samples().windowSeconds()).isEqualTo(2.0);
		assertThat(r.on().samples().tps()).isEqualTo(450.0);
		assertThat(r.off().samples().samples()).isEqualTo(1000);
		assertThat(r.off().samples().failures()).isEqualTo(1);
		assertThat(r.off().samples().tps()).isEqualTo(500.0);
		// gateway CPU: on 60 + 60 ticks = 1.2 s over 900 requests;
		// off 100 ticks = 1.0 s over 1,000
		assertThat(r.on().usage().get("gateway").microsPerRequest(900)).isCloseTo(1333.3, within(0.1));
		assertThat(r.off().usage().get("gateway").microsPerRequest(1000)).isCloseTo(1000.0, within(1e-9));
		assertThat(r.on().usage().get("gateway").cpuPercent()).isCloseTo(60.0, within(1e-9));
		// the machine: busy 60 + 60 of 200 + 200 ticks on, 100 of 400 off
		assertThat(r.on().usage().get("machine").cpuPercent()).isCloseTo(30.0, within(1e-9));
		assertThat(r.off().usage().get("machine").cpuPercent()).isCloseTo(25.0, within(1e-9));
	}

	@Test
	void theArmInForceIsTheOneOfTheLastSwitchThatHadTakenEffect() {
		// measured 1000–4000; a switch asked for at 2000 took effect at 2030;
		// another asked at 3000 applied at 3010
		List<Boundary> b = List.of(new Boundary(1000, true, Map.of(), null),
				new Boundary(2000, 2030, false, Map.of(), null, Map.of(), null),
				new Boundary(3000, 3010, true, Map.of(), null, Map.of(), null),
				new Boundary(4000, true, Map.of(), null));
		assertThat(Switchback.armAt(b, 999)).as("before the measured start").isNull();
		assertThat(Switchback.armAt(b, 1000)).isTrue();
		assertThat(Switchback.armAt(b, 1999)).isTrue();
		assertThat(Switchback.armAt(b, 2000)).as("while the switch was under way").isNull();
		assertThat(Switchback.armAt(b, 2029)).isNull();
		assertThat(Switchback.armAt(b, 2030)).isFalse();
		assertThat(Switchback.armAt(b, 2999)).isFalse();
		assertThat(Switchback.armAt(b, 3005)).isNull();
		assertThat(Switchback.armAt(b, 3500)).isTrue();
		assertThat(Switchback.armAt(b, 4000)).as("from the end on").isNull();
	}

	private static void row(StringBuilder jtl, long ts, long elapsed, boolean ok) {
		jtl.append(ts)
			.append(',')
			.append(elapsed)
			.append(",GET /api/studies/{id},")
			.append(ok ? "200,OK" : "500,Error")
			.append(",t 1-1,text,")
			.append(ok)
			.append(",,361,159,8,8,http://127.0.0.1:8080/api/studies/1,1,0,0\n");
	}

}
