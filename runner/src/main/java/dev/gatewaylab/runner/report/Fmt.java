package dev.gatewaylab.runner.report;

import dev.gatewaylab.runner.result.TargetResult;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Number formatting shared by the text reports. */
public final class Fmt {

	private Fmt() {
	}

	public static String num(double v, int decimals) {
		if (Double.isNaN(v) || Double.isInfinite(v)) {
			return "n/a";
		}
		return String.format(Locale.ROOT, "%,." + decimals + "f", v);
	}

	public static String tps(TargetResult t) {
		return num(t.tps(), 1) + " ± " + num(t.tpsCi95(), 1);
	}

	/** Values joined with " / ", e.g. per-repetition figures. */
	public static String list(double[] values, int decimals) {
		return java.util.Arrays.stream(values).mapToObj(v -> num(v, decimals)).collect(Collectors.joining(" / "));
	}

	/**
	 * A whole-ms percentile, or "–" where the samples were too few to quote one
	 * ({@code Percentiles}).
	 */
	public static String ms(Long v) {
		return v == null ? "–" : Long.toString(v);
	}

	public static String pct(double v) {
		return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.2f %%", v);
	}

	public static String resource(TargetResult.Resource r) {
		if (r == null) {
			return "n/a";
		}
		if (r.note() != null) {
			return r.note();
		}
		String cpu = r.cpuPercent() == null ? "n/a" : num(r.cpuPercent(), 0) + " % CPU";
		String rss = r.rssMiB() == null || r.rssMiB() < 0 ? "" : ", " + num(r.rssMiB(), 0) + " MiB";
		return cpu + rss;
	}

	/**
	 * A settings value for people: maps as {@code k=v, ...}, lists joined with
	 * {@code "; "}, no Java toString.
	 */
	public static String value(Object v) {
		if (v instanceof Map<?, ?> m) {
			return m.isEmpty() ? "none"
					: m.entrySet()
						.stream()
						.map(e -> e.getKey() + "=" + value(e.getValue()))
						.collect(Collectors.joining(", "));
		}
		if (v instanceof Collection<?> c) {
			return c.isEmpty() ? "none" : c.stream().map(Fmt::value).collect(Collectors.joining("; "));
		}
		return String.valueOf(v);
	}

	public static String html(String s) {
		return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
	}

}
