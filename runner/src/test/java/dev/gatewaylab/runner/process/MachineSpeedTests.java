package dev.gatewaylab.runner.process;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MachineSpeedTests {

	@Test
	void theCalibrationIsAPositiveCpuTimeAndRepeatsClosely() {
		double first = MachineSpeed.probeMillis();
		double second = MachineSpeed.probeMillis();
		assertThat(first).isPositive();
		// the same machine a moment later: not a measurement target,
		// only a sanity bound for a loaded CI box
		assertThat(MachineSpeed.spreadPercent(new double[] { first, second })).isLessThan(200);
	}

	@Test
	void spreadIsTheSlowestOverTheFastest() {
		assertThat(MachineSpeed.spreadPercent(new double[] { 20, 30, 25 })).isEqualTo(50.0);
		assertThat(MachineSpeed.spreadPercent(new double[] { 20, Double.NaN })).isNaN();
		assertThat(MachineSpeed.spreadPercent(new double[0])).isNaN();
	}

	@Test
	void theWorkloadDependsOnItsInputSoItCannotBeFoldedAway() {
		assertThat(MachineSpeed.work(1000, 1)).isNotEqualTo(MachineSpeed.work(1000, 2)).isNotZero();
	}

}
