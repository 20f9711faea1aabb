package dev.gatewaylab.gatling;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.csv;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.listFeeder;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.header;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * The ip-filter performance report's run: {@code users} constant users for
 * {@code seconds}, each sending {@code GET /api/studies/{id}} again and again with a
 * random denied client address (a {@code denied} row of the {@code clients} CSV that
 * {@code ./lab deny-list generate} writes) in {@code X-Forwarded-For}; every answer must
 * be 403, {@code application/json} and exactly {@code {"resultMessage":"Deny"}}. The run
 * fails unless every request passed. System properties: {@code gateway} (base URL),
 * {@code users}, {@code seconds}, {@code clients}.
 */
public class DenyListSimulation extends Simulation {

	static final String DENY = "{\"resultMessage\":\"Deny\"}";

	final String gateway = System.getProperty("gateway", "http://127.0.0.1:8080");

	final int users = Integer.getInteger("users", 30);

	final int seconds = Integer.getInteger("seconds", 60);

	final List<Map<String, Object>> denied = csv(System.getProperty("clients")).readRecords()
		.stream()
		.filter((row) -> "denied".equals(row.get("expected")))
		.collect(Collectors.toList());

	final HttpProtocolBuilder protocol = http.baseUrl(this.gateway).acceptHeader("application/json");

	final ScenarioBuilder deniedClients = scenario("denied clients").during(Duration.ofSeconds(this.seconds))
		.on(feed(listFeeder(this.denied).random()).exec(http("GET /api/studies/{id} (denied client)")
			.get((session) -> "/api/studies/" + ThreadLocalRandom.current().nextInt(1, 10_001))
			.header("X-Forwarded-For", "#{clientIp}")
			.check(status().is(403), header("Content-Type").is("application/json"), bodyString().is(DENY))));

	{
		if (this.denied.isEmpty()) {
			throw new IllegalArgumentException(System.getProperty("clients") + " has no denied rows");
		}
		setUp(this.deniedClients.injectOpen(atOnceUsers(this.users))).protocols(this.protocol)
			.assertions(global().allRequests().count().gt(0L), global().failedRequests().count().is(0L));
	}

}
