package dev.gatewaylab.runner.answer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.gatewaylab.runner.result.CpuChain;
import dev.gatewaylab.runner.result.CpuCost;
import dev.gatewaylab.runner.result.TargetResult;
import dev.gatewaylab.runner.stats.Stats;

/**
 * Stock Spring Cloud Gateway → the lab's gateway → the floor, when a run measured stock
 * and the gateway: {@link CpuChain}, and the clause the answer leads with.
 */
public final class CpuChains {

	static final String STOCK = "stock";

	private CpuChains() {
	}

	/**
	 * The chain, or null when the run has no stock or no gateway target, or their CPU per
	 * request was not read in the same repetitions.
	 * @param results the targets measured, in the run's order
	 * @param services target name → the service it measures
	 * @param features service → the features it runs ({@code /actuator/info}), a service
	 * missing when its features could not be read
	 */
	public static CpuChain of(List<TargetResult> results, Map<String, String> services,
			Map<String, List<String>> features) {
		TargetResult stock = CpuSplits.serving(results, services, STOCK);
		TargetResult gateway = CpuSplits.serving(results, services, CpuSplits.GATEWAY);
		if (stock == null || gateway == null) {
			return null;
		}
		double[] s = CpuSplits.reps(stock, STOCK);
		double[] g = CpuSplits.reps(gateway, CpuSplits.GATEWAY);
		if (s == null || g == null || s.length != g.length || s.length == 0) {
			return null;
		}
		double[] saved = new double[s.length];
		int costlier = 0;
		for (int i = 0; i < s.length; i++) {
			saved[i] = s[i] - g[i];
			costlier += (saved[i] > 0) ? 1 : 0;
		}
		TargetResult floor = CpuSplits.serving(results, services, CpuSplits.FLOOR);
		double[] f = (floor != null) ? CpuSplits.reps(floor, CpuSplits.FLOOR) : null;
		boolean withFloor = f != null && f.length == s.length;
		return new CpuChain(stock.name(), gateway.name(), withFloor ? floor.name() : null, cost(s), cost(g),
				withFloor ? cost(f) : null, cost(saved), costlier, onlyIn(features, CpuSplits.GATEWAY, STOCK));
	}

	/**
	 * What {@code service} runs that {@code other} does not; null when either is unknown.
	 */
	static List<String> onlyIn(Map<String, List<String>> features, String service, String other) {
		List<String> mine = features.get(service);
		List<String> theirs = features.get(other);
		if (mine == null || theirs == null) {
			return null;
		}
		List<String> only = new ArrayList<>(mine);
		only.removeAll(theirs);
		return only;
	}

	/**
	 * "CPU per request: stock Spring Cloud Gateway 96 ± 4 µs → ours 52 ± 3 µs → floor 28
	 * ± 1 µs; the levers save 44 ± 5 µs (46 %), stock costlier in 8 of 8 repetitions" and
	 * what the gateway runs besides.
	 */
	static String clause(CpuChain chain) {
		StringBuilder sb = new StringBuilder("CPU per request: stock Spring Cloud Gateway ")
			.append(HopSentence.figure(chain.stockUs().mean(), chain.stockUs().ci95(), "%,.0f", " µs"))
			.append(" → ours ")
			.append(HopSentence.figure(chain.gatewayUs().mean(), chain.gatewayUs().ci95(), "%,.0f", " µs"));
		if (chain.floorUs() != null) {
			sb.append(" → floor ")
				.append(HopSentence.figure(chain.floorUs().mean(), chain.floorUs().ci95(), "%,.0f", " µs"));
		}
		sb.append("; ours saves ")
			.append(HopSentence.figure(chain.savedUs().mean(), chain.savedUs().ci95(), "%,.0f", " µs"))
			.append(String.format(Locale.ROOT, " (%.0f %%) of stock's, stock costlier in %d of %d repetitions",
					100 * chain.savedShare(), chain.stockCostlier(), chain.repetitions()));
		List<String> extra = chain.gatewayOnlyFeatures();
		sb.append(extra == null ? " (the features ours runs besides could not be read)"
				: extra.isEmpty() ? "" : ", though ours also runs " + String.join(", ", extra));
		return sb.toString();
	}

	private static CpuCost cost(double[] reps) {
		return new CpuCost(Stats.mean(reps), Stats.ci95(reps), reps);
	}

}
