package dev.gatewaylab.study;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The deterministic seed data: the same rows on every start, in every app, on every
 * database. Changing anything here changes the data the load plans run against; the
 * checksum in the tests will say so.
 */
final class StudySeed {

	static final int ROWS = 10_000;

	static final long RANDOM_SEED = 20240301L;

	static final Instant BASE_CREATED_AT = Instant.parse("2024-03-01T09:00:00Z");

	private static final Map<String, List<String>> TOPICS = Map.of("backend",
			List.of("Spring Boot", "Kotlin coroutines", "JPA internals", "gRPC", "Event sourcing"), "frontend",
			List.of("React hooks", "Vue 3", "TypeScript", "CSS layout", "Web performance"), "devops",
			List.of("Kubernetes", "Terraform", "GitHub Actions", "Observability", "Linux tuning"), "data",
			List.of("SQL tuning", "Kafka streams", "Spark", "Data modelling", "dbt"), "mobile",
			List.of("Jetpack Compose", "SwiftUI", "Flutter", "React Native", "App size"), "security",
			List.of("OAuth 2.1", "Web app pentesting", "Threat modelling", "Secrets handling", "TLS"), "ai",
			List.of("LLM fine-tuning", "RAG pipelines", "PyTorch", "ML ops", "Evaluation"), "career",
			List.of("Tech interviews", "System design", "Public speaking", "Code review", "Mentoring"), "general",
			List.of("Algorithms", "Clean code", "Book club", "Open source", "English for developers"));

	private static final List<String> LEVELS = List.of("Intro to", "Hands-on", "Deep dive:", "Weekly", "Advanced");

	private static final List<String> CADENCES = List.of("A weekly", "A bi-weekly", "A weekend", "An evening",
			"A lunchtime");

	private StudySeed() {
	}

	/** All seed rows, ids 1..{@value #ROWS}, from a fixed {@link Random} seed. */
	static List<Study> rows() {
		Random random = new Random(RANDOM_SEED);
		List<Study> rows = new ArrayList<>(ROWS);
		for (int id = 1; id <= ROWS; id++) {
			String category = Categories.ALL.get(random.nextInt(Categories.ALL.size()));
			List<String> topics = TOPICS.get(category);
			String topic = topics.get(random.nextInt(topics.size()));
			String title = LEVELS.get(random.nextInt(LEVELS.size())) + " " + topic + " #" + id;
			String description = CADENCES.get(random.nextInt(CADENCES.size())) + " study group on " + topic + ", "
					+ (2 + random.nextInt(11)) + " sessions.";
			int capacity = 2 + random.nextInt(49);
			int memberCount = random.nextInt(capacity + 1);
			rows.add(new Study(id, title, description, category, capacity, memberCount,
					BASE_CREATED_AT.plus(id - 1L, ChronoUnit.MINUTES)));
		}
		return rows;
	}

}
