package dev.gatewaylab.tracing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Tracing is absent unless {@code tracing.enabled} ({@code TRACING_ENABLED}) is true:
 * with the tracing jars on the class path Spring Boot would otherwise create a tracer,
 * sample 10 % of the requests and report to {@code localhost:9411}, and every observation
 * of the app would carry a span. Off, Boot's tracing auto-configurations are excluded (no
 * {@code Tracer} bean, not even the no-op one, so the observation registry has exactly
 * the handlers it had without tracing) and the log format keeps no correlation fields.
 * <p>
 * On, the lab's own names become defaults of Boot's properties (an explicit Boot property
 * still wins): {@code TRACING_SAMPLING_PROBABILITY} for
 * {@code management.tracing.sampling.probability}, {@code TRACING_ZIPKIN_ENDPOINT} for
 * {@code management.tracing.export.zipkin.endpoint}; and {@code /actuator/tracing} is
 * exposed on the management port beside what the app already exposes. Exemplars (trace
 * ids on the metrics) stay where OpenMetrics allows them, so that Prometheus takes the
 * scrape.
 */
public class TracingSwitch implements EnvironmentPostProcessor, Ordered {

	/** The switch; {@code TRACING_ENABLED} in the environment. */
	public static final String ENABLED = "tracing.enabled";

	/** Sampling probability of a request that arrives without a sampling decision. */
	public static final String DEFAULT_SAMPLING_PROBABILITY = "0.1";

	static final String DEFAULT_ZIPKIN_ENDPOINT = "http://localhost:9411/api/v2/spans";

	static final String EXCLUDE = "spring.autoconfigure.exclude";

	static final String EXPOSURE = "management.endpoints.web.exposure.include";

	/**
	 * Micrometer turns the Prometheus client's exemplars on for every metric type; the
	 * OpenMetrics format allows them on counters and histogram buckets only, and
	 * Prometheus refuses a whole scrape with one elsewhere (a timer's {@code _count}).
	 */
	static final String EXEMPLARS_ON_ALL_METRIC_TYPES = "management.prometheus.metrics.export.properties"
			+ "[io.prometheus.exporter.exemplarsOnAllMetricTypes]";

	static final List<String> AUTO_CONFIGURATIONS = List.of(
			"org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration",
			"org.springframework.boot.micrometer.tracing.autoconfigure.NoopTracerAutoConfiguration",
			"org.springframework.boot.micrometer.tracing.autoconfigure.prometheus.PrometheusExemplarsAutoConfiguration",
			"org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration",
			"org.springframework.boot.micrometer.tracing.brave.autoconfigure.zipkin.ZipkinWithBraveTracingAutoConfiguration",
			"org.springframework.boot.zipkin.autoconfigure.ZipkinAutoConfiguration");

	@Override
	public int getOrder() {
		// after the application's config files and the environment are in
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		Map<String, Object> overrides = new LinkedHashMap<>();
		if (enabled(environment)) {
			String exposed = environment.getProperty(EXPOSURE, "health");
			if (!exposed.equals("*") && !Arrays.asList(exposed.split("\\s*,\\s*")).contains(TracingEndpoint.ID)) {
				overrides.put(EXPOSURE, exposed + "," + TracingEndpoint.ID);
			}
			Map<String, Object> defaults = new LinkedHashMap<>();
			defaults.put("management.tracing.sampling.probability",
					"${TRACING_SAMPLING_PROBABILITY:" + DEFAULT_SAMPLING_PROBABILITY + "}");
			defaults.put("management.tracing.export.zipkin.endpoint",
					"${TRACING_ZIPKIN_ENDPOINT:" + DEFAULT_ZIPKIN_ENDPOINT + "}");
			defaults.put(EXEMPLARS_ON_ALL_METRIC_TYPES, "false");
			environment.getPropertySources().addLast(new MapPropertySource("tracingDefaults", defaults));
		}
		else {
			List<String> excluded = new ArrayList<>(
					Arrays.asList(Binder.get(environment).bind(EXCLUDE, String[].class).orElse(new String[0])));
			AUTO_CONFIGURATIONS.stream().filter((name) -> !excluded.contains(name)).forEach(excluded::add);
			overrides.put(EXCLUDE, String.join(",", excluded));
			// Boot's log correlation (trace and span ids in every line's pattern) follows
			// this flag.
			overrides.put("management.tracing.export.enabled", "false");
		}
		if (!overrides.isEmpty()) {
			environment.getPropertySources().addFirst(new MapPropertySource("tracingSwitch", overrides));
		}
	}

	static boolean enabled(ConfigurableEnvironment environment) {
		return environment.getProperty(ENABLED, Boolean.class, false);
	}

}
