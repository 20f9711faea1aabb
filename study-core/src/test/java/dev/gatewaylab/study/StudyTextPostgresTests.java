package dev.gatewaylab.study;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import org.springframework.dao.DataAccessException;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link StudyTextTests} on PostgreSQL, the database compose runs: the same answers as on
 * H2. Runs when {@code -Dstudy.test.postgres-url=jdbc:postgresql://…} names an empty
 * database (user and password in the URL); {@code ci/postgres.sh} starts a throwaway
 * PostgreSQL and runs it. The two tests of its own show why the API checks the text
 * first: PostgreSQL itself refuses NUL, and its driver turns an unpaired surrogate into
 * {@code ?}.
 */
@EnabledIfSystemProperty(named = StudyTextPostgresTests.URL, matches = "jdbc:postgresql:.+",
		disabledReason = "no PostgreSQL: -Dstudy.test.postgres-url=jdbc:postgresql://... (ci/postgres.sh starts one)")
class StudyTextPostgresTests extends StudyTextTests {

	static final String URL = "study.test.postgres-url";

	@DynamicPropertySource
	static void postgres(DynamicPropertyRegistry registry) {
		registry.add("spring.datasource.url", () -> System.getProperty(URL));
	}

	@Test
	void postgresItselfRefusesNulInText() {
		assertThatExceptionOfType(DataAccessException.class).isThrownBy(() -> insertTitle("a\u0000b"));
	}

	@Test
	void postgresStoresAnUnpairedSurrogateAsAQuestionMark() {
		long id = insertTitle("a\ud800b");
		assertThat(this.jdbc.sql("SELECT title FROM study WHERE id = ?").param(id).query(String.class).single())
			.isEqualTo("a?b");
		this.jdbc.sql("DELETE FROM study WHERE id = ?").param(id).update();
	}

	private long insertTitle(String title) {
		return this.jdbc
			.sql("INSERT INTO study (title, category, capacity, member_count, created_at) "
					+ "VALUES (?, 'general', 1, 0, CURRENT_TIMESTAMP) RETURNING id")
			.param(title)
			.query(Long.class)
			.single();
	}

}
