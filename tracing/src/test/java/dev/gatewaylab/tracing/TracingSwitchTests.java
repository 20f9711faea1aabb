package dev.gatewaylab.tracing;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class TracingSwitchTests {

	private final TracingSwitch tracingSwitch = new TracingSwitch();

	@Test
	void offByDefaultExcludesBootsTracingAndKeepsTheAppsOwnExclusions() {
		MockEnvironment environment = new MockEnvironment().withProperty(TracingSwitch.EXCLUDE, "a.B,c.D");
		this.tracingSwitch.postProcessEnvironment(environment, new SpringApplication());
		String excluded = environment.getProperty(TracingSwitch.EXCLUDE);
		assertThat(excluded).startsWith("a.B,c.D,");
		assertThat(excluded.split(",")).containsAll(TracingSwitch.AUTO_CONFIGURATIONS);
		assertThat(environment.getProperty("management.tracing.export.enabled")).isEqualTo("false");
		assertThat(environment.getProperty(TracingSwitch.EXPOSURE)).isNull();
	}

	@Test
	void onAddsTheEndpointToWhatIsExposedAndTheLabsVariablesAsDefaults() {
		MockEnvironment environment = new MockEnvironment().withProperty(TracingSwitch.ENABLED, "true")
			.withProperty(TracingSwitch.EXPOSURE, "health,info,prometheus")
			.withProperty("TRACING_SAMPLING_PROBABILITY", "0.25");
		this.tracingSwitch.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty(TracingSwitch.EXPOSURE)).isEqualTo("health,info,prometheus,tracing");
		assertThat(environment.getProperty(TracingSwitch.EXCLUDE)).isNull();
		assertThat(environment.getProperty("management.tracing.sampling.probability")).isEqualTo("0.25");
		assertThat(environment.getProperty("management.tracing.export.zipkin.endpoint"))
			.isEqualTo("http://localhost:9411/api/v2/spans");
		assertThat(environment.getProperty(TracingSwitch.EXEMPLARS_ON_ALL_METRIC_TYPES)).isEqualTo("false");
	}

	@Test
	void anExplicitBootPropertyWinsOverTheLabsDefault() {
		MockEnvironment environment = new MockEnvironment().withProperty(TracingSwitch.ENABLED, "true")
			.withProperty("management.tracing.sampling.probability", "1.0")
			.withProperty("TRACING_SAMPLING_PROBABILITY", "0.25");
		this.tracingSwitch.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("management.tracing.sampling.probability")).isEqualTo("1.0");
		assertThat(environment.getProperty(TracingSwitch.EXPOSURE)).isEqualTo("health,tracing");
	}

	@Test
	void everythingExposedStaysSo() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.addFirst(new org.springframework.core.env.MapPropertySource("test",
					java.util.Map.of(TracingSwitch.ENABLED, "true", TracingSwitch.EXPOSURE, "*")));
		this.tracingSwitch.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty(TracingSwitch.EXPOSURE)).isEqualTo("*");
	}

}
