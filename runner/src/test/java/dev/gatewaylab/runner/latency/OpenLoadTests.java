package dev.gatewaylab.runner.latency;

import dev.gatewaylab.runner.run.PlanRequest;
import java.net.URI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OpenLoadTests {

	private KeepAliveServer server;

	@BeforeEach
	void start() throws Exception {
		server = new KeepAliveServer();
	}

	@AfterEach
	void stop() throws Exception {
		server.close();
	}

	private URI base() {
		return server.base();
	}

	@Test
	void sendsArrivalsAtTheRateAndRecordsMicrosecondResponseTimes() {
		long before = System.currentTimeMillis();
		OpenLoad.Window w = OpenLoad.run(base(), PlanRequest.parse("GET /api/studies/{id}", 1, 50, 200), 300, 2, 8,
				OpenLoad.Arrivals.POISSON);
		long after = System.currentTimeMillis();
		// the window's load, in wall-clock time, for the latency log
		assertThat(w.histogram().getStartTimeStamp()).isBetween(before, after - 2000);
		assertThat(w.histogram().getEndTimeStamp() - w.histogram().getStartTimeStamp()).isEqualTo(2000);
		assertThat(w.requests()).isBetween(450L, 750L);
		assertThat(w.ok()).isEqualTo(w.requests());
		assertThat(w.successRate()).isEqualTo(100.0);
		assertThat(w.histogram().getTotalCount()).isEqualTo(w.responses());
		// nanoseconds, not whole milliseconds:
		// a loopback answer takes well under 1 ms at p50 and is not a multiple of 1 ms
		long p50 = w.histogram().getValueAtPercentile(50);
		assertThat(p50).isGreaterThan(1_000).isLessThan(50_000_000);
		assertThat(p50 % 1_000_000).isNotZero();
		assertThat(server.paths).allMatch(p -> p.matches("/api/studies/([1-9]|[1-4][0-9]|50)")).hasSizeGreaterThan(20);
	}

	@Test
	void poissonArrivalsComeInBurstsAndUniformOnesEvenlySpaced() {
		// 100/s: a mean gap of 10 ms. Exponential gaps are shorter
		// than a quarter of the mean 22 % of the time (1 − e^−0.25);
		// evenly spaced ones only when a late timer fires two arrivals together.
		double poisson = shortGaps(OpenLoad.Arrivals.POISSON);
		assertThat(poisson).isGreaterThan(0.12);
		// A busy machine fires late timers together too, for either schedule: the evenly
		// spaced one is shown by its best of three windows, against the Poisson one's.
		double uniform = shortGaps(OpenLoad.Arrivals.UNIFORM);
		for (int i = 0; i < 2 && uniform >= 0.08; i++) {
			uniform = Math.min(uniform, shortGaps(OpenLoad.Arrivals.UNIFORM));
		}
		assertThat(uniform).as("short gaps, evenly spaced against Poisson's %.3f", poisson).isLessThan(poisson / 2);
	}

	private double shortGaps(OpenLoad.Arrivals arrivals) {
		server.arrivals.clear();
		OpenLoad.Window w = OpenLoad.run(base(), PlanRequest.parse("GET /x", 1, 1, 200), 100, 2, 8, arrivals);
		assertThat(w.ok()).isBetween(150L, 250L);
		java.util.List<Long> t = server.arrivals.stream().sorted().toList();
		long shortGaps = 0;
		for (int i = 1; i < t.size(); i++) {
			shortGaps += t.get(i) - t.get(i - 1) < 2_500_000 ? 1 : 0;
		}
		return (double) shortGaps / (t.size() - 1);
	}

	@Test
	void aWindowEndsWhenItsLastRequestHasAnswered() {
		// Hyperfoil's own runner looked at the phase at most once a second and missed
		// the phase's end about every second window: a 0.5 s window then took 1.5 s
		PlanRequest request = PlanRequest.parse("GET /x", 1, 1, 200);
		OpenLoad.run(base(), request, 200, 0.2, 4, OpenLoad.Arrivals.UNIFORM);
		java.util.List<Long> wallMillis = new java.util.ArrayList<>();
		for (int i = 0; i < 6; i++) {
			long start = System.nanoTime();
			OpenLoad.Window w = OpenLoad.run(base(), request, 200, 0.5, 4, OpenLoad.Arrivals.UNIFORM);
			assertThat(w.ok()).isBetween(80L, 120L);
			wallMillis.add((System.nanoTime() - start) / 1_000_000);
		}
		// The missed end added a second to about every second window; a busy machine may
		// slow one window, not three.
		assertThat(wallMillis).as("the windows' wall times in ms").filteredOn((ms) -> ms >= 1_200).hasSizeLessThan(2);
	}

	@Test
	void aStallIsPaidByEveryArrivalDuringIt() {
		server.delayMs = 100;
		// one connection: arrivals queue behind each other; their waiting counts
		OpenLoad.Window w = OpenLoad.run(base(), PlanRequest.parse("GET /x", 1, 1, 200), 50, 1, 1,
				OpenLoad.Arrivals.POISSON);
		assertThat(w.histogram().getValueAtPercentile(90)).isGreaterThan(1_000_000_000L);
		assertThat(w.blockedNanos()).isPositive();
	}

	@Test
	void answersOtherThanTheExpectedStatusAreFailures() {
		server.status = 503;
		OpenLoad.Window w = OpenLoad.run(base(), PlanRequest.parse("GET /x", 1, 1, 200), 100, 1, 4,
				OpenLoad.Arrivals.POISSON);
		assertThat(w.requests()).isPositive();
		assertThat(w.ok()).isZero();
		assertThat(w.successRate()).isZero();
	}

	@Test
	void theClosedModelKeepsUsersBusyAndNoMore() {
		server.delayMs = 20;
		OpenLoad.Window w = OpenLoad.closed(base(), PlanRequest.parse("GET /x", 1, 1, 200), 4, 2);
		// 4 users × 2 s ÷ ≥ 20 ms per request:
		// at most 400 requests, and far more than one
		assertThat(w.requests()).isBetween(40L, 400L);
		assertThat(w.ok()).isEqualTo(w.requests());
		assertThat(w.rate()).isCloseTo(w.responses() / 2.0, org.assertj.core.api.Assertions.within(0.01));
		assertThat(w.histogram().getValueAtPercentile(50)).isGreaterThanOrEqualTo(20_000_000L);
	}

}
