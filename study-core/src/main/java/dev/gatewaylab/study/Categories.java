package dev.gatewaylab.study;

import java.util.List;

/** The study categories of the shared contract, lowercase. */
final class Categories {

	static final String DEFAULT = "general";

	/**
	 * Validation pattern; a compile-time constant so annotations can use it. Kept in sync
	 * with {@link #ALL} by a test.
	 */
	static final String PATTERN = "backend|frontend|devops|data|mobile|security|ai|career|general";

	static final String MESSAGE = "must be one of backend, frontend, devops, data, mobile, security, ai, career, general";

	static final List<String> ALL = List.of("backend", "frontend", "devops", "data", "mobile", "security", "ai",
			"career", DEFAULT);

	private Categories() {
	}

}
