package dev.gatewaylab.runner.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.gatewaylab.runner.result.SoakResult;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The soak's verdict: drift is named, noise below the floors and limits is not. */
class SoakVerdictTests {

	private static final Verdict.Limits LIMITS = new Verdict.Limits(0.1, 10, 10);

	private static SoakResult.Sample sample(int i, long p99, double rss, double heap, long fds, long threads,
			double dropped) {
		return new SoakResult.Sample(i, i * 60.0, 30_000, 0, 500, p99, rss, heap, fds, threads, dropped);
	}

	private static SoakResult.Totals totals(long requests, long errors, long p99First, long p99Last) {
		return new SoakResult.Totals(requests, errors, 100.0 * errors / requests, p99First, p99Last,
				100.0 * (p99Last - p99First) / p99First);
	}

	@Test
	void flatResourcesAndLatencyAreStable() {
		List<SoakResult.Sample> s = List.of(sample(1, 20, 400, 40, 60, 50, 0), sample(2, 21, 405, 40.5, 70, 51, 0),
				sample(3, 20, 410, 41, 80, 52, 0));
		assertThat(Verdict.findings(s, totals(90_000, 9, 20, 21), LIMITS)).isEmpty();
	}

	@Test
	void heapAfterGcGrowthIsNamed() {
		List<SoakResult.Sample> s = List.of(sample(1, 20, 400, 40, 60, 50, 0), sample(2, 20, 400, 60, 60, 50, 0));
		assertThat(Verdict.findings(s, totals(60_000, 0, 20, 20), LIMITS)).singleElement()
			.asString()
			.startsWith("heap after GC grew from 40 MiB to 60 MiB: +50.0 %");
	}

	@Test
	void rssFdThreadGrowthAndDroppedLogEventsAreEachNamed() {
		List<SoakResult.Sample> s = List.of(sample(1, 20, 300, 40, 60, 50, 5), sample(2, 20, 400, 40, 200, 80, 25));
		assertThat(Verdict.findings(s, totals(60_000, 0, 20, 20), LIMITS)).hasSize(4)
			.anyMatch(f -> f.startsWith("RSS grew from 300 MiB to 400 MiB"))
			.anyMatch(f -> f.startsWith("open file descriptors grew from 60 to 200"))
			.anyMatch(f -> f.startsWith("threads grew from 50 to 80"))
			.anyMatch(f -> f.startsWith("20 log events dropped"));
	}

	@Test
	void smallAbsoluteChangesAreNotDriftEvenWhenLargeInPercent() {
		// 10 → 14 fds is +40 % but 4 descriptors:
		// one more connection open at the moment of sampling
		List<SoakResult.Sample> s = List.of(sample(1, 2, 100, 5, 10, 20, 0), sample(2, 3, 110, 6.5, 14, 23, 0));
		assertThat(Verdict.findings(s, totals(60_000, 0, 2, 3), LIMITS)).isEmpty();
	}

	@Test
	void errorRateAndP99DriftOverTheLimitsAreNamed() {
		assertThat(Verdict.findings(List.of(), totals(10_000, 11, 20, 30), LIMITS)).containsExactly(
				"error rate 0.110 % (11 of 10000) is over 0.1 %",
				"p99 drifted from 20 ms (first third) to 30 ms (last third): +50.0 % is over 10 %");
	}

	@Test
	void unknownProcessFiguresAreNotJudged() {
		List<SoakResult.Sample> s = List.of(sample(1, 20, Double.NaN, Double.NaN, -1, -1, Double.NaN),
				sample(2, 20, Double.NaN, Double.NaN, -1, -1, Double.NaN));
		assertThat(Verdict.findings(s, totals(60_000, 0, 20, 20), LIMITS)).isEmpty();
	}

	@Test
	void noRequestAtAllIsAFinding() {
		assertThat(Verdict.findings(List.of(), new SoakResult.Totals(0, 0, 0, 0, 0, 0), LIMITS))
			.containsExactly("no request completed");
	}

	@Test
	void p99DriftPoolsTheFirstAndTheLastThirdOfTheIntervals() {
		List<Histogram> hs = new ArrayList<>();
		List<Long> errors = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			Histogram h = new Histogram(3_600_000_000L, 3);
			for (int n = 0; n < 1000; n++) {
				// the slow 2 % gets slower every interval
				h.recordValue(1000 * (n < 980 ? 5 : 10 + 10L * i));
			}
			hs.add(h);
			errors.add(i == 5 ? 2L : 0L);
		}
		SoakResult.Totals t = Intervals.totals(hs, errors);
		assertThat(t.requests()).isEqualTo(6000);
		assertThat(t.errors()).isEqualTo(2);
		// pooled, the 99th percentile is the faster half of the slow 2 %:
		// intervals 1–2 → 10 ms, 5–6 → 50 ms
		assertThat(t.p99FirstMs()).isCloseTo(10.0, within(0.02));
		assertThat(t.p99LastMs()).isCloseTo(50.0, within(0.06));
		assertThat(t.p99DriftPct()).isCloseTo(400.0, within(1.0));
	}

	@Test
	void withFewerThanAThousandSamplesPerThirdTheP99DriftIsNotJudged(
			@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
		List<Histogram> hs = new ArrayList<>();
		List<Long> errors = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			Histogram h = new Histogram(3_600_000_000L, 3);
			h.recordValueWithCount(5000, 290);
			// a tail that grows, from too few samples
			h.recordValueWithCount(1000 * (10 + 40L * i), 10);
			hs.add(h);
			errors.add(0L);
		}
		SoakResult.Totals t = Intervals.totals(hs, errors);
		assertThat(t.requests()).isEqualTo(1800);
		assertThat(t.p99FirstMs()).isNaN();
		assertThat(t.p99LastMs()).isNaN();
		assertThat(t.p99DriftPct()).isNaN();
		List<SoakResult.Sample> s = List.of(sample(1, 20, 400, 40, 60, 50, 0), sample(2, 20, 400, 40, 60, 50, 0));
		assertThat(Verdict.findings(s, t, LIMITS)).isEmpty();
		SoakResult result = new SoakResult(java.util.Map.of("soak_s", 60), 100, 30, null, s, t, List.of(), List.of());
		assertThat(dev.gatewaylab.runner.report.SoakReport.verdict(result))
			.isEqualTo("verdict: STABLE — 1800 requests at 30 req/s, error rate 0.000 %, p99 drift not judged (too few "
					+ "samples)");
	}

	@Test
	void oldGenerationAndDroppedEventsAreReadFromPrometheusText() {
		String metrics = """
				# HELP jvm_memory_used_bytes The amount of used memory
				jvm_memory_used_bytes{application="gateway",area="heap",id="PS Eden Space"} 1.048576E8
				jvm_memory_used_bytes{application="gateway",area="heap",id="PS Old Gen"} 4.194304E7
				jvm_memory_used_bytes{application="gateway",area="nonheap",id="Metaspace"} 9.0E7
				gateway_log_events_dropped_total{application="gateway"} 12.0
				""";
		assertThat(ProcessProbe.oldGenMiB(metrics)).isEqualTo(40.0);
		assertThat(ProcessProbe.sum(metrics, "gateway_log_events_dropped_total")).isEqualTo(12.0);
		assertThat(ProcessProbe.oldGenMiB("jvm_memory_used_bytes{area=\"heap\",id=\"ZHeap\"} 1.0")).isNaN();
	}

	@Test
	void theReportLeadsWithTheVerdictAndListsEveryInterval(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
			throws Exception {
		List<SoakResult.Sample> s = List.of(sample(1, 20, 300, 40, 60, 50, 0), sample(2, 20, 300, 60, 60, 50, 0));
		SoakResult.Totals t = totals(60_000, 0, 20, 20);
		SoakResult result = new SoakResult(java.util.Map.of("soak_s", 120), 700, 490, null, s, t,
				Verdict.findings(s, t, LIMITS), List.of());
		dev.gatewaylab.runner.report.SoakReport.write(dir, result);
		String md = java.nio.file.Files.readString(dir.resolve("soak.md"));
		assertThat(md).contains("**DRIFT**")
			.contains("heap after GC grew from 40 MiB to 60 MiB")
			.contains("| 2 | 120 | 30000 |");
		assertThat(dev.gatewaylab.runner.report.SoakReport.verdict(result))
			.startsWith("verdict: DRIFT — heap after GC");
		assertThat(dir.resolve("soak.json")).content().contains("\"heap_after_gc_mib\" : 60.0");
	}

}
