package dev.gatewaylab.runner.run;

import dev.gatewaylab.runner.remote.Remote;
import dev.gatewaylab.runner.run.Catalog;
import dev.gatewaylab.runner.run.Settings;
import java.util.List;
import java.util.Map;

/**
 * {@link Settings} for tests: a default bench (8 repetitions × 3 s, 8 threads, a 120 s
 * warm-up cap, the closed model, no targets) with what a test varies set by name.
 */
public final class TestSettings {

	private int warmupSeconds = 5;

	private double rate;

	private int latencyRepetitions = 1;

	private boolean quick;

	private Map<String, String> jmeterProperties = Map.of();

	private Remote remote = Remote.NONE;

	private Catalog catalog;

	private TestSettings() {
	}

	public static TestSettings bench() {
		return new TestSettings();
	}

	public TestSettings warmup(int seconds) {
		this.warmupSeconds = seconds;
		return this;
	}

	public TestSettings rate(double rate) {
		this.rate = rate;
		return this;
	}

	public TestSettings latencyRepetitions(int repetitions) {
		this.latencyRepetitions = repetitions;
		return this;
	}

	public TestSettings quick(boolean quick) {
		this.quick = quick;
		return this;
	}

	public TestSettings jmeterProperties(Map<String, String> properties) {
		this.jmeterProperties = properties;
		return this;
	}

	public TestSettings catalog(Catalog catalog) {
		this.catalog = catalog;
		return this;
	}

	public Settings build() {
		return new Settings(8, 3, this.warmupSeconds, 120, 8, this.rate, false, this.latencyRepetitions, 0, List.of(),
				this.jmeterProperties, null, null, "127.0.0.1", 0, this.remote, this.quick, null, false, this.catalog);
	}

}
