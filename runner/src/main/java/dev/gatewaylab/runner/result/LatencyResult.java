package dev.gatewaylab.runner.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.gatewaylab.runner.stats.Stats;
import java.util.List;
import java.util.Map;

/**
 * Latency across the load range, from the latency generator (run.json "latency"): every
 * target at the same open-model arrival rates, response times in µs; what the gateway hop
 * adds at each rate (gateway − direct), the rate the answer quotes with its interval over
 * interleaved repetitions, and the knee; the same for each other gateway measured beside
 * it ({@code added_by}: the MVC gateway − direct). {@code generatorWarmup}: how the
 * generator warmed up before it measured (null when it did not: --quick, --warmup 0).
 * {@code kneeRate} null = the gateway's p99 did not depart from direct's up to the
 * highest rate measured, or no knee was judged ({@code knee_not_judged} says why).
 */
@JsonPropertyOrder({ "engine", "engine_warmup", "answer_rate", "levels", "added_at_answer_rate",
		"added_at_answer_rate_by", "knee_rate", "knee_not_judged", "knee_rule" })
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LatencyResult(@JsonProperty("engine") String generator,
		@JsonProperty("engine_warmup") String generatorWarmup, @JsonProperty("answer_rate") double answerRate,
		List<Level> levels, @JsonProperty("added_at_answer_rate") Added addedAtAnswerRate,
		@JsonProperty("added_at_answer_rate_by") Map<String, Added> addedAtAnswerRateBy,
		@JsonProperty("knee_rate") Double kneeRate, @JsonProperty("knee_rule") String kneeRule) {

	/** Without another gateway beside the gateway. */
	public LatencyResult(String generator, String generatorWarmup, double answerRate, List<Level> levels,
			Added addedAtAnswerRate, Double kneeRate, String kneeRule) {
		this(generator, generatorWarmup, answerRate, levels, addedAtAnswerRate, null, kneeRate, kneeRule);
	}

	/** Why no knee was judged: too few samples for a p99 at two rates. */
	public static final String TOO_FEW_SAMPLES = "too few samples for p99";

	/**
	 * Why no knee was judged: the added p99 every other rate is compared against is not
	 * resolved ({@link Stats#RESOLVED}).
	 */
	public static final String P99_NOT_RESOLVED = "p99 not resolved";

	/**
	 * True when the knee rule could be applied: see {@link #kneeNotJudged()}.
	 */
	public boolean kneeJudged() {
		return kneeNotJudged() == null;
	}

	/**
	 * Null when the knee rule could be applied, else why not: {@link #TOO_FEW_SAMPLES}
	 * when fewer than two rates have the hop's added p99; {@link #P99_NOT_RESOLVED} when
	 * the added p99 at the lowest of them — what a knee is measured against — fails the
	 * answer's resolution rule (at the answer rate: its interval over the repetitions).
	 */
	@JsonProperty("knee_not_judged")
	public String kneeNotJudged() {
		return kneeNotJudged(this.levels, this.answerRate, this.addedAtAnswerRate);
	}

	/** {@link #kneeNotJudged()} of these levels, before the result is built. */
	public static String kneeNotJudged(List<Level> levels, double answerRate, Added atAnswerRate) {
		List<Level> withP99 = levels.stream().filter(Level::hasAddedP99).toList();
		if (withP99.size() < 2) {
			return TOO_FEW_SAMPLES;
		}
		Level lowest = withP99.get(0);
		Estimate base = lowest.rate() == answerRate && atAnswerRate != null && atAnswerRate.p99() != null
				? atAnswerRate.p99() : lowest.added().p99();
		return Stats.resolved(base.mean(), base.ci95()) ? null : P99_NOT_RESOLVED;
	}

	/**
	 * One arrival rate: each target's point, what the hop adds there, and what each other
	 * gateway's hop adds ({@code added_by}, e.g. gateway-mvc − direct).
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Level(double rate, Map<String, Point> targets, Added added,
			@JsonProperty("added_by") Map<String, Added> addedBy) {

		/** Without another gateway beside the gateway. */
		public Level(double rate, Map<String, Point> targets, Added added) {
			this(rate, targets, added, null);
		}

		/**
		 * True when the hop's added p99 is known at this rate (both targets had the
		 * samples).
		 */
		public boolean hasAddedP99() {
			return this.added != null && this.added.p99() != null;
		}

	}

	/**
	 * One target at one rate, all its windows merged. A percentile is null where the
	 * point has too few samples for it ({@link dev.gatewaylab.runner.stats.Percentiles}:
	 * p50 below 20, p90 below 100, p99 below 1,000, p99.9 below 10,000).
	 */
	@JsonPropertyOrder({ "rate", "achieved_rate", "requests", "samples", "success_rate", "mean_us", "p50_us", "p90_us",
			"p99_us", "p999_us", "max_us", "blocked_ms", "throttled", "windows" })
	public record Point(double rate, @JsonProperty("achieved_rate") double achievedRate, long requests, long samples,
			@JsonProperty("success_rate") double successRate, @JsonProperty("mean_us") double meanUs,
			@JsonProperty("p50_us") Double p50Us, @JsonProperty("p90_us") Double p90Us,
			@JsonProperty("p99_us") Double p99Us, @JsonProperty("p999_us") Double p999Us,
			@JsonProperty("max_us") double maxUs, @JsonProperty("blocked_ms") double blockedMs, boolean throttled,
			int windows) {
	}

	/**
	 * What the hop adds (gateway − direct) in µs; at the answer rate each with its CI95
	 * over interleaved repetitions (one difference per repetition). A percentile is null
	 * where either target's samples (at the answer rate: either target's window in some
	 * repetition) were too few for it.
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Added(Estimate p50, Estimate p99, Estimate p999) {
	}

	/** A figure in µs: mean, CI95 half-width (NaN with one value) and the values. */
	public record Estimate(double mean, double ci95, double[] values) {
	}

}
