package dev.gatewaylab.bench.report;

import java.util.Locale;

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

    public static String html(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
