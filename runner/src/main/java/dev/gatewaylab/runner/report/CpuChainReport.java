package dev.gatewaylab.runner.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.gatewaylab.runner.result.CpuChain;
import dev.gatewaylab.runner.result.CpuCost;

/**
 * The bench report's section on stock Spring Cloud Gateway → the lab's gateway → the
 * floor.
 */
public final class CpuChainReport {

	private CpuChainReport() {
	}

	static void section(Document doc, CpuChain chain) {
		if (chain == null) {
			return;
		}
		List<List<String>> rows = new ArrayList<>();
		rows.add(row(chain.stock() + ": Spring Cloud Gateway as a user gets it", chain.stockUs()));
		rows.add(row(chain.gateway() + ": the same + the gateway-levers module + the lab's features",
				chain.gatewayUs()));
		if (chain.floorUs() != null) {
			rows.add(row(chain.floor() + ": Reactor Netty alone, the stack under both", chain.floorUs()));
		}
		rows.add(row("saved by ours (" + chain.stock() + " − " + chain.gateway() + ", paired per repetition)",
				chain.savedUs()));
		doc.heading("CPU per request: stock → ours → floor")
			.table(List.of("target", "µs per request (mean ± 95 % CI)", "per repetition"), rows)
			.text(String.format(Locale.ROOT,
					"Ours saves %.0f %% of stock's CPU per request; stock cost more in %d of " + "%d repetitions.",
					100 * chain.savedShare(), chain.stockCostlier(), chain.repetitions()))
			.text(features(chain));
	}

	private static String features(CpuChain chain) {
		if (chain.gatewayOnlyFeatures() == null) {
			return "The features each runs could not be read from their /actuator/info.";
		}
		if (chain.gatewayOnlyFeatures().isEmpty()) {
			return "Both run the same features.";
		}
		return "Ours runs features stock lacks, so the saving above is the levers' and the lab's settings' net of "
				+ "those features' cost: " + String.join("; ", chain.gatewayOnlyFeatures()) + ". The levers' own "
				+ "saving with the features equal: `./lab bench --experiment tuning --variants levers-off` "
				+ "(docs/gateway-levers.md).";
	}

	/**
	 * The terminal's line: "CPU per request: stock 96.0 ± 4.0 µs → gateway 52.0 ± 3.0 →
	 * floor 28.0 ± 1.0 (saved 44.0 ± 5.0, 46 %)", or null without a chain.
	 */
	public static String line(CpuChain chain) {
		if (chain == null) {
			return null;
		}
		return "CPU per request: " + chain.stock() + " " + ci(chain.stockUs()) + " µs → " + chain.gateway() + " "
				+ ci(chain.gatewayUs())
				+ (chain.floorUs() != null ? " → " + chain.floor() + " " + ci(chain.floorUs()) : "")
				+ String.format(Locale.ROOT, " (saved %s, %.0f %%)", ci(chain.savedUs()), 100 * chain.savedShare());
	}

	private static List<String> row(String what, CpuCost c) {
		return List.of(what, ci(c), Fmt.list(c.reps(), 1));
	}

	private static String ci(CpuCost c) {
		return Fmt.num(c.mean(), 1) + " ± " + Fmt.num(c.ci95(), 1);
	}

}
