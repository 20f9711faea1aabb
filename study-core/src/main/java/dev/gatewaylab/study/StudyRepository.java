package dev.gatewaylab.study;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;

/**
 * Plain {@link JdbcClient} rather than a Spring Data repository, so that this library
 * leaves the host application's own Spring Data JDBC repositories (the monolith's users)
 * to Boot's auto-configuration. SQL works on H2 and PostgreSQL.
 */
class StudyRepository implements StudyReader {

	private static final String COLUMNS = "id, title, description, category, capacity, member_count, created_at";

	private static final RowMapper<Study> ROW_MAPPER = StudyRepository::mapRow;

	private final JdbcClient jdbc;

	StudyRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	Optional<Study> findById(long id) {
		return this.jdbc.sql("SELECT " + COLUMNS + " FROM study WHERE id = :id")
			.param("id", id)
			.query(ROW_MAPPER)
			.optional();
	}

	/**
	 * @param category a category, or {@code null} for all (an unused named parameter is
	 * not bound, so PostgreSQL never sees an untyped null)
	 */
	StudyPage findPage(String category, int page, int size) {
		String where = (category != null) ? " WHERE category = :category" : "";
		long total = this.jdbc.sql("SELECT COUNT(*) FROM study" + where)
			.param("category", category)
			.query(Long.class)
			.single();
		long offset = (long) page * size;
		List<Study> content = (offset >= total) ? List.of()
				: this.jdbc
					.sql("SELECT " + COLUMNS + " FROM study" + where + " ORDER BY id LIMIT :limit OFFSET :offset")
					.param("category", category)
					.param("limit", size)
					.param("offset", offset)
					.query(ROW_MAPPER)
					.list();
		return StudyPage.of(content, page, size, total);
	}

	@Override
	public List<StudySummary> firstPage(int size) {
		if (size < 1 || size > MAX_PAGE_SIZE) {
			throw new IllegalArgumentException("size must be 1.." + MAX_PAGE_SIZE + ", was " + size);
		}
		return findPage(null, 0, size).content()
			.stream()
			.map((study) -> new StudySummary(study.id(), study.title(), study.category(), study.capacity(),
					study.memberCount()))
			.toList();
	}

	Study create(StudyRequest request) {
		Instant createdAt = Instant.now().truncatedTo(ChronoUnit.SECONDS);
		KeyHolder keys = new GeneratedKeyHolder();
		this.jdbc
			.sql("INSERT INTO study (title, description, category, capacity, member_count, created_at)"
					+ " VALUES (:title, :description, :category, :capacity, 0, :createdAt)")
			.param("title", request.title())
			.param("description", request.description())
			.param("category", request.categoryOrDefault())
			.param("capacity", request.capacity())
			.param("createdAt", createdAt.atOffset(ZoneOffset.UTC))
			.update(keys, "id");
		long id = keys.getKeyAs(Number.class).longValue();
		return new Study(id, request.title(), request.description(), request.categoryOrDefault(), request.capacity(), 0,
				createdAt);
	}

	/** Replaces the editable fields; members beyond a lowered capacity are dropped. */
	Optional<Study> update(long id, StudyRequest request) {
		int updated = this.jdbc
			.sql("UPDATE study SET title = :title, description = :description, category = :category,"
					+ " capacity = :capacity, member_count = LEAST(member_count, :capacity) WHERE id = :id")
			.param("title", request.title())
			.param("description", request.description())
			.param("category", request.categoryOrDefault())
			.param("capacity", request.capacity())
			.param("id", id)
			.update();
		return (updated == 0) ? Optional.empty() : findById(id);
	}

	boolean deleteById(long id) {
		return this.jdbc.sql("DELETE FROM study WHERE id = :id").param("id", id).update() > 0;
	}

	private static Study mapRow(ResultSet rs, int rowNum) throws SQLException {
		return new Study(rs.getLong("id"), rs.getString("title"), rs.getString("description"), rs.getString("category"),
				rs.getInt("capacity"), rs.getInt("member_count"),
				rs.getObject("created_at", OffsetDateTime.class).toInstant());
	}

}
