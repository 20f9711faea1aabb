package dev.gatewaylab.bench.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SweepPreflightTest {

    @Test
    void warnsWithTheFixWhenKernelLimitsAreBelowTheConcurrency() {
        // 50 million connections exceed any default open-files limit and accept backlog.
        List<String> warnings = SweepCommand.preflight(50_000_000);
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("open-files limit").contains("ulimit -n 65535"));
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("somaxconn")
                .contains("sysctl -w net.core.somaxconn=4096"));
    }

    @Test
    void noWarningForTinyLevels() {
        assertThat(SweepCommand.preflight(1)).isEmpty();
    }

    @Test
    void sweepReportsHaveATableRowPerLevelAndInlineCharts() {
        List<SweepCommand.Point> points = List.of(
                new SweepCommand.Point("gateway", 10, 1000, 100, 10, 1, 50, 40, 100),
                new SweepCommand.Point("gateway", 100, 2000, 200, 50, 1, 300, 250, 99.5));
        assertThat(SweepCommand.markdown(points, Map.of("duration_s", 10)))
                .contains("| gateway | 10 | 1000 | 100.0 | 10.00 | 1 | 50 | 40 | 100.00 % |")
                .contains("| gateway | 100 | 2000 | 200.0 | 50.00 | 1 | 300 | 250 | 99.50 % |");
        assertThat(SweepCommand.html(points, Map.of())).contains("TPS vs concurrency", "p99 vs concurrency", "<svg")
                .doesNotContain("<script");
    }
}
