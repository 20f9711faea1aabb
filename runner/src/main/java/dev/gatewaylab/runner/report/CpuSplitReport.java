package dev.gatewaylab.runner.report;

import dev.gatewaylab.runner.result.CpuCost;
import dev.gatewaylab.runner.result.CpuSplit;
import java.util.List;
import java.util.Locale;

/**
 * The bench report's section on how the gateway's CPU per request splits over the floor.
 */
public final class CpuSplitReport {

	private CpuSplitReport() {
	}

	static void section(Document doc, CpuSplit split) {
		if (split == null) {
			return;
		}
		String g = split.gateway();
		String f = split.floor();
		doc.heading("Gateway CPU per request: the floor and what is on top")
			.table(List.of("part", "µs per request (mean ± 95 % CI)", "per repetition", "share of " + g),
					List.of(row(g + " (the whole)", split.gatewayUs(), 1, "100 %"),
							row(f + ": Reactor Netty's own cost (the stack under the gateway)", split.floorUs(), 1,
									percent(split.floorShare())),
							row("on top: Spring Cloud Gateway + the lab's features (" + g + " − " + f + ")",
									split.onTopUs(), 1, percent(1 - split.floorShare()))))
			.text(String.format(Locale.ROOT, "%s ÷ %s CPU per request: %s (per repetition %s).", g, f,
					ci(split.gatewayOverFloor(), 2), Fmt.list(split.gatewayOverFloor().reps(), 2)))
			.text("Each repetition pairs the " + g + "'s process CPU ÷ its requests with the " + f
					+ "'s in the same interleaved round; the intervals are over those paired values.");
	}

	/**
	 * The terminal's line: "gateway CPU per request 54.0 ± 5.0 µs = floor 26.0 ± 2.5 + on
	 * top 28.0 ± 3.7 (gateway ÷ floor 2.08 ± 0.20)", or null without a split.
	 */
	public static String line(CpuSplit split) {
		if (split == null) {
			return null;
		}
		return split.gateway() + " CPU per request " + ci(split.gatewayUs(), 1) + " µs = " + split.floor() + " "
				+ ci(split.floorUs(), 1) + " + on top " + ci(split.onTopUs(), 1) + " (" + split.gateway() + " ÷ "
				+ split.floor() + " " + ci(split.gatewayOverFloor(), 2) + ")";
	}

	private static List<String> row(String part, CpuCost c, int decimals, String share) {
		return List.of(part, ci(c, decimals), Fmt.list(c.reps(), decimals), share);
	}

	private static String ci(CpuCost c, int decimals) {
		return Fmt.num(c.mean(), decimals) + " ± " + Fmt.num(c.ci95(), decimals);
	}

	private static String percent(double share) {
		return Double.isNaN(share) ? "n/a" : Fmt.num(100 * share, 0) + " %";
	}

}
