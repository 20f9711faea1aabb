package dev.gatewaylab.lab.bench;

import dev.gatewaylab.lab.run.Load;
import dev.gatewaylab.lab.run.Settings;
import dev.gatewaylab.lab.run.Target;
import java.io.IOException;

/**
 * Warm-up (discarded) in windows of {@code --warmup} seconds until throughput is steady: two consecutive windows
 * within {@value #TOLERANCE_PERCENT} % of each other, or {@value #MAX_WINDOWS} windows. A JVM target on two cores is
 * still compiling after one short window, and its measured reps then rise one after the other.
 */
final class Warmup {

    static final int MAX_WINDOWS = 3;
    static final int TOLERANCE_PERCENT = 10;

    /** How a target's warm-up ended: windows run, and whether the last two agreed. */
    record Outcome(int windows, boolean steady) {
    }

    private final Settings s;
    private final Load load;

    Warmup(Settings settings, Load load) {
        this.s = settings;
        this.load = load;
    }

    Outcome run(Target t) throws IOException, InterruptedException {
        int maxWindows = s.quick() ? 1 : MAX_WINDOWS; // --quick is a smoke check with a fixed budget
        double previous = -1;
        for (int window = 1; window <= maxWindows; window++) {
            load.progress().phase("warm-up " + t.name() + " window " + window, s.warmupSeconds());
            java.util.concurrent.atomic.LongAdder count = new java.util.concurrent.atomic.LongAdder();
            long start = System.nanoTime();
            load.run(t, s.warmupSeconds(), s.threads(), null, r -> count.increment());
            double tps = count.sum() / ((System.nanoTime() - start) / 1e9);
            if (previous > 0 && Math.abs(tps - previous) <= previous * TOLERANCE_PERCENT / 100.0) {
                return new Outcome(window, true);
            }
            previous = tps;
        }
        return new Outcome(maxWindows, maxWindows == 1);
    }
}
