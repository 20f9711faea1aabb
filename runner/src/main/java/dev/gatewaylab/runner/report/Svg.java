package dev.gatewaylab.runner.report;

import java.util.List;
import java.util.Locale;

/** Minimal inline SVG charts (no scripts, no external assets). */
public final class Svg {

	static final String[] COLORS = { "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2" };

	private static final int W = 720;

	private static final int H = 300;

	private static final int L = 70;

	private static final int R = 20;

	private static final int T = 50; // title row, then the legend row, then the plot

	private static final int B = 50;

	private Svg() {
	}

	/** Bars with symmetric error bars (e.g. TPS ± CI). NaN errors are not drawn. */
	public static String bars(String title, String unit, List<String> names, double[] values, double[] errors) {
		double max = 0;
		for (int i = 0; i < values.length; i++) {
			max = Math.max(max, values[i] + (Double.isNaN(errors[i]) ? 0 : errors[i]));
		}
		max = niceMax(max);
		StringBuilder sb = open(title);
		axisY(sb, max, unit);
		int n = names.size();
		double slot = (W - L - R) / (double) Math.max(1, n);
		for (int i = 0; i < n; i++) {
			double x = L + i * slot + slot * 0.2;
			double bw = slot * 0.6;
			double y = y(values[i], max);
			sb.append(f("<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s'/>", x, y, bw, H - B - y,
					COLORS[i % COLORS.length]));
			if (!Double.isNaN(errors[i]) && errors[i] > 0) {
				double cx = x + bw / 2;
				double y1 = y(values[i] + errors[i], max);
				double y2 = y(Math.max(0, values[i] - errors[i]), max);
				sb.append(f("<path d='M%.1f %.1fV%.1fM%.1f %.1fh12M%.1f %.1fh12' stroke='#000' stroke-width='1.5'/>",
						cx, y1, y2, cx - 6, y1, cx - 6, y2));
			}
			sb.append(f("<text x='%.1f' y='%d' text-anchor='middle'>%s</text>", x + bw / 2, H - B + 18,
					Fmt.html(names.get(i))));
			sb.append(f("<text x='%.1f' y='%.1f' text-anchor='middle' font-size='11'>%s</text>", x + bw / 2, y - 4,
					Fmt.num(values[i], 0)));
		}
		return sb.append("</svg>").toString();
	}

	/**
	 * Grouped bars: for each name, one bar per series (e.g. p50/p90/p99). A NaN value (a
	 * percentile the samples could not support) leaves its bar out.
	 */
	public static String groupedBars(String title, String unit, List<String> names, List<String> series,
			double[][] values) {
		double max = 0;
		for (double[] row : values) {
			for (double v : row) {
				if (!Double.isNaN(v)) {
					max = Math.max(max, v);
				}
			}
		}
		max = niceMax(max);
		StringBuilder sb = open(title);
		axisY(sb, max, unit);
		int n = names.size();
		double slot = (W - L - R) / (double) Math.max(1, n);
		double bw = slot * 0.7 / series.size();
		for (int i = 0; i < n; i++) {
			double x0 = L + i * slot + slot * 0.15;
			for (int s = 0; s < series.size(); s++) {
				if (Double.isNaN(values[i][s])) {
					continue;
				}
				double y = y(values[i][s], max);
				sb.append(f("<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s'/>", x0 + s * bw, y, bw * 0.9,
						H - B - y, COLORS[s % COLORS.length]));
			}
			sb.append(f("<text x='%.1f' y='%d' text-anchor='middle'>%s</text>", x0 + slot * 0.35, H - B + 18,
					Fmt.html(names.get(i))));
		}
		legend(sb, series);
		return sb.append("</svg>").toString();
	}

	/**
	 * Lines over x (index = x value * xStep). NaN points break nothing, they are skipped.
	 */
	public static String lines(String title, String xUnit, String yUnit, List<String> series, List<double[]> ys,
			double[] xs) {
		double maxY = 0;
		int maxLen = 0;
		for (double[] y : ys) {
			maxLen = Math.max(maxLen, y.length);
			for (double v : y) {
				if (!Double.isNaN(v)) {
					maxY = Math.max(maxY, v);
				}
			}
		}
		maxY = niceMax(maxY);
		double maxX = xs != null ? xs[xs.length - 1] : Math.max(1, maxLen - 1);
		double minX = xs != null ? xs[0] : 0;
		StringBuilder sb = open(title);
		axisY(sb, maxY, yUnit);
		if (maxX > minX) {
			// x ticks on round values too (1, 2, 2.5 or 5 × 10^k),
			// at their true positions
			double step = roundStep((maxX - minX) / 4);
			for (double xv = Math.ceil(minX / step - 1e-9) * step; xv <= maxX + 1e-9; xv += step) {
				double px = L + (W - L - R) * (xv - minX) / (maxX - minX);
				sb.append(f("<text x='%.1f' y='%d' text-anchor='middle' font-size='11'>%s</text>", px, H - B + 16,
						Fmt.num(xv + 0.0, step < 1 ? 1 : 0))); // + 0.0: never "-0"
			}
		}
		sb.append(f("<text x='%d' y='%d' text-anchor='middle' font-size='12'>%s</text>", (W + L) / 2, H - 8,
				Fmt.html(xUnit)));
		for (int s = 0; s < ys.size(); s++) {
			double[] y = ys.get(s);
			StringBuilder d = new StringBuilder();
			for (int i = 0; i < y.length; i++) {
				if (Double.isNaN(y[i])) {
					continue;
				}
				double xv = xs != null ? xs[i] : i;
				double px = maxX == minX ? L : L + (W - L - R) * (xv - minX) / (maxX - minX);
				d.append(d.length() == 0 ? "M" : "L").append(f("%.1f %.1f", px, y(y[i], maxY)));
			}
			sb.append(f("<path d='%s' fill='none' stroke='%s' stroke-width='2'/>", d, COLORS[s % COLORS.length]));
			if (xs != null) {
				for (int i = 0; i < y.length; i++) {
					if (!Double.isNaN(y[i])) {
						double px = maxX == minX ? L : L + (W - L - R) * (xs[i] - minX) / (maxX - minX);
						sb.append(f("<circle cx='%.1f' cy='%.1f' r='3' fill='%s'/>", px, y(y[i], maxY),
								COLORS[s % COLORS.length]));
					}
				}
			}
		}
		legend(sb, series);
		return sb.append("</svg>").toString();
	}

	private static StringBuilder open(String title) {
		StringBuilder sb = new StringBuilder();
		sb.append(f(
				"<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' viewBox='0 0 %d %d' "
						+ "font-family='sans-serif' font-size='12' role='img'><title>%s</title>",
				W, H, W, H, Fmt.html(title)));
		sb.append(f("<text x='%d' y='18' font-size='14' font-weight='bold'>%s</text>", L, Fmt.html(title)));
		return sb;
	}

	private static void axisY(StringBuilder sb, double max, String unit) {
		double step = tickStep(max);
		int ticks = (int) Math.round(max / step);
		for (int k = 0; k <= ticks; k++) {
			double v = step * k;
			double y = y(v, max);
			sb.append(f("<line x1='%d' x2='%d' y1='%.1f' y2='%.1f' stroke='#ddd'/>", L, W - R, y, y));
			sb.append(f("<text x='%d' y='%.1f' text-anchor='end' font-size='11'>%s</text>", L - 6, y + 4,
					Fmt.num(v, step < 1 ? 2 : step < 10 && step != Math.rint(step) ? 1 : 0)));
		}
		sb.append(f("<text x='14' y='%d' transform='rotate(-90 14 %d)' text-anchor='middle'>%s</text>", (T + H - B) / 2,
				(T + H - B) / 2, Fmt.html(unit)));
		sb.append(f("<line x1='%d' x2='%d' y1='%d' y2='%d' stroke='#000'/>", L, W - R, H - B, H - B));
	}

	/**
	 * One row under the title, left-aligned with the plot: never drawn over the title or
	 * the data.
	 */
	private static void legend(StringBuilder sb, List<String> series) {
		for (int s = 0; s < series.size(); s++) {
			int x = L + s * 130;
			sb.append(f("<rect x='%d' y='26' width='12' height='12' fill='%s'/>", x, COLORS[s % COLORS.length]));
			sb.append(f("<text x='%d' y='36'>%s</text>", x + 16, Fmt.html(series.get(s))));
		}
	}

	private static double y(double v, double max) {
		return H - B - (H - B - T) * (max <= 0 ? 0 : Math.max(0, v) / max);
	}

	/**
	 * The axis top: the smallest multiple of a round tick step (1, 2, 2.5 or 5 × 10^k) at
	 * or above v.
	 */
	static double niceMax(double v) {
		if (v <= 0 || Double.isNaN(v) || Double.isInfinite(v)) {
			return 1;
		}
		double step = roundStep(v / 4);
		return Math.ceil(v / step - 1e-9) * step;
	}

	/**
	 * Tick step for an axis whose top came from {@link #niceMax}: 3 to 5 ticks on round
	 * values.
	 */
	static double tickStep(double max) {
		return roundStep(max / 4 - 1e-9 * max);
	}

	private static double roundStep(double raw) {
		double exp = Math.pow(10, Math.floor(Math.log10(raw)));
		for (double m : new double[] { 1, 2, 2.5, 5, 10 }) {
			if (m * exp >= raw) {
				return m * exp;
			}
		}
		return 10 * exp;
	}

	private static String f(String fmt, Object... args) {
		return String.format(Locale.ROOT, fmt, args);
	}

}
