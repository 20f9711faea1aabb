package dev.gatewaylab.runner.experiment;

import dev.gatewaylab.runner.experiment.Experiment.Variant;
import java.util.ArrayList;
import java.util.List;

/**
 * The tuning experiment of the MVC gateway (Spring Cloud Gateway Server WebMVC,
 * {@code gateway-mvc}): its levers — the threads its requests and its upstream client run
 * on, the client, what it asks the upstream for, its timers, the access log and the JVM —
 * each turned away from its default alone (docs/gateway-mvc.md). The gateway-mvc service
 * is restarted per variant and measured through its own target.
 */
public final class TuningMvc {

	/** The lab's service and target of the MVC gateway. */
	static final String SERVICE = "gateway-mvc";

	private TuningMvc() {
	}

	static Experiment experiment() {
		List<Variant> v = new ArrayList<>();
		v.add(new Variant("defaults", Experiment.env(),
				"today's defaults: virtual threads, the JDK HttpClient on virtual threads (baseline)"));
		v.addAll(levers());
		Tuning
			.otherJdkVariant("GATEWAY_MVC_JAVA_HOME", 21,
					"the MVC gateway on another installed JDK (21+: virtual threads)")
			.ifPresent(v::add);
		return new Experiment("tuning-mvc", "each lever of the MVC gateway turned away from its default", SERVICE,
				List.of(SERVICE), null, 0, v);
	}

	static List<Variant> levers() {
		List<Variant> v = new ArrayList<>();
		v.add(new Variant("platform-threads", Experiment.env("GATEWAY_MVC_VIRTUAL_THREADS", "false"),
				"requests on Tomcat's pool of platform threads instead of a virtual thread each"));
		v.add(new Variant("client-executor-jdk", Experiment.env("GATEWAY_MVC_CLIENT_EXECUTOR", "jdk"),
				"the JDK HttpClient on its own cached pool of platform threads (spring-cloud-gateway#4150's slow case)"));
		v.add(new Variant("all-platform",
				Experiment.env("GATEWAY_MVC_VIRTUAL_THREADS", "false", "GATEWAY_MVC_CLIENT_EXECUTOR", "jdk"),
				"no virtual thread anywhere: the MVC gateway as it runs on a JDK before 21"));
		v.add(new Variant("simple-client", Experiment.env("GATEWAY_MVC_HTTP_CLIENT", "simple"),
				"HttpURLConnection, blocking on the request's own thread, instead of the JDK HttpClient"));
		v.add(new Variant("http2-upgrade", Experiment.env("GATEWAY_MVC_HTTP_VERSION", "HTTP_2"),
				"the JDK HttpClient's own default: an h2c upgrade offered on each new upstream connection"));
		v.add(new Variant("client-observation-on", Experiment.env("GATEWAY_MVC_CLIENT_OBSERVATION", "true"),
				"http.client.requests for every upstream call too (Spring Cloud Gateway's default)"));
		v.add(new Variant("observation-off", Experiment.env("GATEWAY_MVC_SERVER_OBSERVATION", "false"),
				"no http.server.requests timer (nothing for the dashboards)"));
		v.add(new Variant("keep-alive-100", Experiment.env("GATEWAY_MVC_MAX_KEEP_ALIVE_REQUESTS", "100"),
				"Tomcat's default: a client connection closed after 100 requests (the gateway's default: no limit)"));
		v.add(new Variant("access-log-off", Experiment.env("GATEWAY_LOGGING_MODE", "off"), "no access log"));
		v.add(new Variant("log-wait-timeout", Experiment.env("GATEWAY_LOG_WAIT_STRATEGY", "Timeout"),
				"async logger thread signalled for every line (Log4j2's default) instead of parking 5 ms"));
		v.add(new Variant("ring-buffer-262144", Experiment.env("GATEWAY_LOG_RING_BUFFER_SIZE", "default"),
				"Log4j2's own async-logger ring buffer in a servlet app, 262,144 events (32 MiB) allocated up front, instead of 16,384"));
		v.add(new Variant("g1", Experiment.env("GATEWAY_MVC_JAVA_OPTS", "-Xmx256m -Xms256m -XX:+UseG1GC"),
				"G1 (the JVM default) instead of ParallelGC"));
		return v;
	}

}
