package dev.gatewaylab.runner.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** CPU per request from /proc/<pid>/stat readings: the arithmetic against a fixture. */
class CpuPerRequestTests {

	// A real line's shape: pid, (comm with a space and a parenthesis), state, ...
	// utime=field 14, stime=field 15.
	private static final String STAT_BEFORE = "4242 (java (lab) x) S 1 4242 4242 0 -1 4194560 90000 0 12 0 "
			+ "1500 250 0 0 20 0 40 0 123456 3000000000 60000 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0";

	private static final String STAT_AFTER = "4242 (java (lab) x) S 1 4242 4242 0 -1 4194560 90000 0 12 0 "
			+ "2150 330 0 0 20 0 40 0 123456 3000000000 60000 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0";

	@Test
	void ticksAreUtimePlusStimeEvenWhenTheCommandNameHoldsSpacesAndParentheses() {
		assertThat(ProcSampler.cpuTicksOf(STAT_BEFORE)).isEqualTo(1750);
		assertThat(ProcSampler.cpuTicksOf(STAT_AFTER)).isEqualTo(2480);
	}

	@Test
	void microsecondsPerRequestAreCpuSecondsOverRequests() {
		// 730 ticks at USER_HZ 100 = 7.3 s of CPU;
		// 31,000 requests meanwhile -> 235.48 µs per request.
		double seconds = ProcSampler.cpuSeconds(ProcSampler.cpuTicksOf(STAT_BEFORE),
				ProcSampler.cpuTicksOf(STAT_AFTER));
		assertThat(seconds).isCloseTo(7.3, within(1e-9));
		ProcSampler.Usage u = new ProcSampler.Usage(146, seconds, 300);
		assertThat(u.microsPerRequest(31_000)).isCloseTo(235.4839, within(1e-3));
		assertThat(u.microsPerRequest(0)).isNaN();
		assertThat(new ProcSampler.Usage(Double.NaN, Double.NaN, -1).microsPerRequest(10)).isNaN();
		assertThat(ProcSampler.cpuSeconds(-1, 10)).isNaN();
	}

	@Test
	void jvmActivityIsReadFromPrometheusTextWithLabelValuesHoldingSpaces() {
		String text = """
				# HELP jvm_compilation_time_ms_total The approximate accumulated elapsed time spent in compilation
				# TYPE jvm_compilation_time_ms_total counter
				jvm_compilation_time_ms_total{application="gateway",compiler="HotSpot 64-Bit Tiered Compilers"} 12345.0
				jvm_gc_pause_seconds_count{action="end of minor GC",cause="G1 Evacuation Pause",gc="G1 Young Generation"} 7
				jvm_gc_pause_seconds_sum{action="end of minor GC",cause="G1 Evacuation Pause",gc="G1 Young Generation"} 0.25
				jvm_gc_pause_seconds_sum{action="end of major GC",cause="System.gc()",gc="G1 Old Generation"} 0.05
				""";
		JvmActivity a = JvmActivity.parse(text);
		assertThat(a.compileMs()).isEqualTo(12345.0);
		assertThat(a.gcPauseMs()).isCloseTo(300.0, within(1e-9));
		assertThat(JvmActivity.parse("up 1\n")).isNull();
		assertThat(JvmActivity.self().compileMs()).isPositive();
	}

}
