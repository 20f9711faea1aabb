package dev.gatewaylab.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gatewaylab.lab.result.EngineResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnginesTest {

    private static EngineResult engine(String name, long samples) {
        return new EngineResult(name, samples, 0, Map.of("gateway", samples), null, "");
    }

    @Test
    void warnsAboutAnEngineWellBelowTheOthersOnly() {
        List<String> w = Engines.warnings(List.of(engine("a", 1000), engine("b", 950), engine("c", 500)), List.of());
        assertThat(w).hasSize(1);
        assertThat(w.get(0)).startsWith("engine c sent 500 samples, 51 % of the other engines' mean (975)");
        assertThat(Engines.warnings(List.of(engine("a", 1000), engine("b", 800)), List.of())).isEmpty();
        assertThat(Engines.warnings(List.of(engine("a", 1000), engine("b", 10)), List.of("b"))).isEmpty(); // said as lost
        assertThat(Engines.warnings(List.of(engine("a", 1000)), List.of())).isEmpty();
        assertThat(Engines.warnings(null, List.of())).isEmpty();
    }
}
