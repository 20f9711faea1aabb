package dev.gatewaylab.bench.sweep;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.gatewaylab.bench.LabException;
import dev.gatewaylab.bench.SweepRun;
import dev.gatewaylab.bench.report.Fmt;
import dev.gatewaylab.bench.report.RunResult;
import dev.gatewaylab.bench.report.Svg;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = "Concurrency levels per target: AVG/MIN/MAX/p99/TPS per level; sweep.md, sweep.html, sweep.json.")
public final class SweepCommand implements Callable<Integer> {

    @Mixin
    public dev.gatewaylab.bench.TargetOptions target = new dev.gatewaylab.bench.TargetOptions();

    @Option(names = "--levels", split = ",", defaultValue = "10,100,500,1000", description = "Thread counts (default: ${DEFAULT-VALUE}).")
    public List<Integer> levels;

    @Option(names = "--duration", defaultValue = "10", description = "Seconds per level (default: ${DEFAULT-VALUE}).")
    public int duration;

    @Option(names = "--warmup", defaultValue = "5", description = "Warm-up seconds per target at the lowest level (default: ${DEFAULT-VALUE}).")
    public int warmup;

    private final PrintStream out;
    private final PrintStream err;

    public SweepCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** One level of one target. */
    public record Point(String target, int threads, long samples, double tps, @JsonProperty("avg_ms") double avgMs,
                        @JsonProperty("min_ms") long minMs, @JsonProperty("max_ms") long maxMs,
                        @JsonProperty("p99_ms") long p99Ms, @JsonProperty("success_rate") double successRate) {
    }

    @Override
    public Integer call() throws Exception {
        if (levels.isEmpty() || levels.stream().anyMatch(l -> l == null || l < 1)) {
            throw new LabException("invalid --levels " + levels + ": each level must be ≥ 1", "use e.g. --levels 10,100,500");
        }
        if (duration < 1 || warmup < 0) {
            throw new LabException("invalid --duration/--warmup", "use --duration ≥ 1 and --warmup ≥ 0");
        }
        int max = levels.stream().mapToInt(Integer::intValue).max().orElse(0);
        preflight(max).forEach(w -> err.println("warning: " + w));
        return SweepRun.run(this, out, err);
    }

    /** Kernel limits that distort high-concurrency numbers: open files and the accept backlog. */
    public static List<String> preflight(int maxLevel) {
        List<String> w = new ArrayList<>();
        long nofile = openFilesSoftLimit();
        if (nofile >= 0 && nofile < 2L * maxLevel + 1024) {
            w.add("open-files limit " + nofile + " < 2 × " + maxLevel + " + 1024: connections will fail with 'Too many "
                    + "open files' — run 'ulimit -n 65535' in this shell first");
        }
        long somaxconn = readLong(Path.of("/proc/sys/net/core/somaxconn"));
        if (somaxconn >= 0 && somaxconn < maxLevel) {
            w.add("net.core.somaxconn " + somaxconn + " < " + maxLevel + ": connection bursts overflow the accept "
                    + "backlog (SYN retries add ~1 s latency) — run 'sysctl -w net.core.somaxconn=4096'");
        }
        return w;
    }

    static long openFilesSoftLimit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                    return "unlimited".equals(soft) ? Long.MAX_VALUE : Long.parseLong(soft);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return -1;
    }

    private static long readLong(Path p) {
        try {
            return Long.parseLong(Files.readString(p).trim());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    public static String markdown(List<Point> points, Map<String, Object> settings) {
        StringBuilder sb = new StringBuilder("# Gateway Lab sweep\n\n");
        sb.append("Closed model: each level is a fixed number of JMeter threads for ").append(settings.get("duration_s"))
                .append(" s (one run per level, after a warm-up); TPS ≈ threads ÷ latency until something saturates.\n\n");
        sb.append("| target | threads | samples | TPS | AVG ms | MIN ms | MAX ms | p99 ms | success |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Point p : points) {
            sb.append(String.format(Locale.ROOT, "| %s | %d | %d | %s | %s | %d | %d | %d | %s |%n", p.target(),
                    p.threads(), p.samples(), Fmt.num(p.tps(), 1), Fmt.num(p.avgMs(), 2), p.minMs(), p.maxMs(),
                    p.p99Ms(), Fmt.pct(p.successRate())));
        }
        sb.append("\nSettings: ").append(settings).append('\n');
        return sb.toString();
    }

    public static String html(List<Point> points, Map<String, Object> settings) {
        Map<String, List<Point>> byTarget = new LinkedHashMap<>();
        points.forEach(p -> byTarget.computeIfAbsent(p.target(), k -> new ArrayList<>()).add(p));
        List<String> names = new ArrayList<>(byTarget.keySet());
        List<double[]> tps = new ArrayList<>();
        List<double[]> p99 = new ArrayList<>();
        double[] xs = byTarget.values().iterator().next().stream().mapToDouble(Point::threads).toArray();
        byTarget.values().forEach(l -> {
            tps.add(l.stream().mapToDouble(Point::tps).toArray());
            p99.add(l.stream().mapToDouble(Point::p99Ms).toArray());
        });
        StringBuilder sb = new StringBuilder("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
                + "<title>Gateway Lab sweep</title><style>body{font-family:sans-serif;max-width:1000px;margin:2em auto}"
                + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}"
                + "</style></head><body><h1>Gateway Lab sweep</h1>");
        sb.append(Svg.lines("TPS vs concurrency", "threads", "req/s", names, tps, xs));
        sb.append(Svg.lines("p99 vs concurrency", "threads", "ms", names, p99, xs));
        sb.append("<table><tr><th>target</th><th>threads</th><th>samples</th><th>TPS</th><th>AVG ms</th><th>MIN ms</th>"
                + "<th>MAX ms</th><th>p99 ms</th><th>success</th></tr>");
        for (Point p : points) {
            sb.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%d</td><td>%d</td><td>%s</td><td>%s</td><td>%d</td>"
                    + "<td>%d</td><td>%d</td><td>%s</td></tr>", Fmt.html(p.target()), p.threads(), p.samples(),
                    Fmt.num(p.tps(), 1), Fmt.num(p.avgMs(), 2), p.minMs(), p.maxMs(), p.p99Ms(),
                    Fmt.pct(p.successRate())));
        }
        sb.append("</table><p>Settings: ").append(Fmt.html(settings.toString())).append("</p></body></html>\n");
        return sb.toString();
    }

    public static void write(Path dir, List<Point> points, Map<String, Object> settings) throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("settings", settings);
        json.put("points", points);
        RunResult.JSON.writeValue(dir.resolve("sweep.json").toFile(), json);
        Files.writeString(dir.resolve("sweep.md"), markdown(points, settings));
        Files.writeString(dir.resolve("sweep.html"), html(points, settings));
    }
}
