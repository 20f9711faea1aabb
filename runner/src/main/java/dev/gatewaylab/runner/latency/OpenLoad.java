package dev.gatewaylab.runner.latency;

import dev.gatewaylab.runner.run.PlanRequest;
import io.hyperfoil.api.config.Benchmark;
import io.hyperfoil.api.config.BenchmarkBuilder;
import io.hyperfoil.api.config.PhaseBuilder;
import io.hyperfoil.api.statistics.StatisticsSnapshot;
import io.hyperfoil.http.api.HttpMethod;
import io.hyperfoil.http.config.HttpPluginBuilder;
import io.hyperfoil.http.config.Protocol;
import io.hyperfoil.http.statistics.HttpStats;
import java.net.URI;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

import static io.hyperfoil.http.steps.HttpStepCatalog.SC;

/**
 * The latency generator: Hyperfoil, embedded, in the open model. Arrivals follow a
 * schedule at a fixed rate whatever the responses do — evenly spaced, as wrk2 and Vegeta
 * send them, or Poisson (exponential gaps, the bursts independent clients make)
 * ({@link Arrivals}); every request is timed with {@link System#nanoTime()} from the
 * moment its arrival starts it — before it waits for a free connection, so a stalled
 * server's backlog counts in the response times (coordinated omission accounted for) —
 * and recorded into an HdrHistogram in nanoseconds (2 significant digits: 1 %
 * resolution). One event-loop thread and a pool of keep-alive connections opened before
 * the first arrival.
 */
public final class OpenLoad {

	/** Requests still in flight this long after the last arrival count as timeouts. */
	public static final int TIMEOUT_MS = 2000;

	private OpenLoad() {
	}

	/** How arrivals are spaced at a fixed mean rate. */
	public enum Arrivals {

		/** Exponential gaps: independent clients, with their bursts. */
		POISSON,

		/** Equal gaps of 1/rate: the schedule of wrk2 and Vegeta. */
		UNIFORM;

		/** The option value, lower case. */
		public String label() {
			return name().toLowerCase(java.util.Locale.ROOT);
		}

	}

	/** What the generator is and how it measures, for reports. */
	public static String describe(int connections, Arrivals arrivals) {
		return "Hyperfoil 0.25.2 embedded: open model (" + (arrivals == Arrivals.POISSON ? "Poisson" : "evenly spaced")
				+ " arrivals), one event loop, " + connections
				+ " keep-alive connections per target; each response time from its arrival, System.nanoTime() into "
				+ "an HdrHistogram in ns (2 significant digits)";
	}

	/**
	 * What one open-model window measured. Its histogram's start and end time stamps
	 * (epoch ms) are the window's load, when it started.
	 */
	public record Window(Histogram histogram, long requests, long responses, long ok, long failures, long blockedNanos,
			boolean throttled, double rate, double seconds) {

		/** Successful responses over arrivals, in % (0 when nothing was sent). */
		public double successRate() {
			return requests == 0 ? 0 : 100.0 * ok / requests;
		}

	}

	/**
	 * Runs {@code request} against {@code base} at {@code rate}/s for {@code seconds},
	 * arrivals spaced as {@code arrivals} says; blocks until the last arrival completed
	 * or timed out.
	 */
	public static Window run(URI base, PlanRequest request, double rate, double seconds, int connections,
			Arrivals arrivals) {
		int maxSessions = (int) Math.max(64, Math.ceil(rate * TIMEOUT_MS / 1000.0));
		return execute(base, request, connections, seconds, rate,
				catalog -> catalog.constantRate(0)
					.usersPerSec(rate)
					.variance(arrivals == Arrivals.POISSON)
					.maxSessions(maxSessions));
	}

	/**
	 * The same generator in the closed model: {@code users} sessions, each with its own
	 * keep-alive connection, sending the next request when the last one has answered, for
	 * {@code seconds} ({@link Window#rate()} is then the rate achieved).
	 */
	public static Window closed(URI base, PlanRequest request, int users, double seconds) {
		return execute(base, request, users, seconds, 0, catalog -> catalog.always(users));
	}

	private static Window execute(URI base, PlanRequest request, int connections, double seconds, double rate,
			Function<PhaseBuilder.Catalog, PhaseBuilder<?>> model) {
		long durationMs = Math.max(1, Math.round(seconds * 1000));
		Protocol protocol = Protocol.fromScheme(base.getScheme());
		BenchmarkBuilder builder = BenchmarkBuilder.builder().name("lab-latency").threads(1);
		builder.addPlugin(HttpPluginBuilder::new)
			.ergonomics()
			.repeatCookies(false)
			.userAgentFromSession(false)
			.endErgonomics()
			.http()
			.protocol(protocol)
			.host(base.getHost())
			.port(protocol.portOrDefault(base.getPort()))
			.allowHttp2(false)
			.sharedConnections(connections)
			.requestTimeout(TIMEOUT_MS)
			.endHttp();
		model.apply(builder.addPhase("load"))
			.duration(durationMs)
			.maxDuration(durationMs + TIMEOUT_MS + 1000)
			.scenario()
			.initialSequence("request")
			.step(SC)
			.httpRequest(HttpMethod.valueOf(request.method()))
			.path(session -> request.nextPath())
			.timeout(TIMEOUT_MS, java.util.concurrent.TimeUnit.MILLISECONDS)
			.endStep()
			.endSequence()
			.endScenario();
		Benchmark benchmark = builder.build();
		Histogram histogram = new Histogram(3);
		WindowRunner runner = new WindowRunner(benchmark);
		StatisticsSnapshot total = runner.run();
		histogram.add(total.histogram);
		if (runner.startMillis() > 0) {
			histogram.setStartTimeStamp(runner.startMillis());
			histogram.setEndTimeStamp(runner.startMillis() + durationMs);
		}
		HttpStats http = HttpStats.get(total);
		long ok = request.expectStatus() >= 200 && request.expectStatus() < 300 ? http.status_2xx : 0;
		long failures = total.requestCount - ok;
		double achieved = rate > 0 ? rate : total.responseCount / (durationMs / 1000.0);
		return new Window(histogram, total.requestCount, total.responseCount, ok, Math.max(0, failures),
				total.blockedTime, runner.throttled(), achieved, durationMs / 1000.0);
	}

}
