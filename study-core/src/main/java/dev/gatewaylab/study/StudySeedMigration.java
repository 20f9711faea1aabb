package dev.gatewaylab.study;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.ZoneOffset;

import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * Flyway Java migration V2: inserts the {@link StudySeed} rows in JDBC batches, then
 * moves the identity on so that the first POST gets id 10001. Boot's Flyway
 * auto-configuration applies {@link JavaMigration} beans.
 */
class StudySeedMigration implements JavaMigration {

	private static final int BATCH_SIZE = 1_000;

	@Override
	public MigrationVersion getVersion() {
		return MigrationVersion.fromVersion("2");
	}

	@Override
	public String getDescription() {
		return "seed studies";
	}

	/**
	 * Ties the recorded migration to the seed parameters, so changing them fails
	 * validation on a kept database.
	 */
	@Override
	public Integer getChecksum() {
		return Long.hashCode(StudySeed.RANDOM_SEED * 31 + StudySeed.ROWS);
	}

	@Override
	public boolean canExecuteInTransaction() {
		return true;
	}

	@Override
	public void migrate(Context context) throws Exception {
		Connection connection = context.getConnection();
		try (PreparedStatement insert = connection
			.prepareStatement("INSERT INTO study (id, title, description, category, capacity, member_count, created_at)"
					+ " VALUES (?, ?, ?, ?, ?, ?, ?)")) {
			int pending = 0;
			for (Study study : StudySeed.rows()) {
				insert.setLong(1, study.id());
				insert.setString(2, study.title());
				insert.setString(3, study.description());
				insert.setString(4, study.category());
				insert.setInt(5, study.capacity());
				insert.setInt(6, study.memberCount());
				insert.setObject(7, study.createdAt().atOffset(ZoneOffset.UTC));
				insert.addBatch();
				if (++pending == BATCH_SIZE) {
					insert.executeBatch();
					pending = 0;
				}
			}
			if (pending > 0) {
				insert.executeBatch();
			}
		}
		try (Statement statement = connection.createStatement()) {
			// Same syntax on H2 and PostgreSQL for identity columns.
			statement.execute("ALTER TABLE study ALTER COLUMN id RESTART WITH " + (StudySeed.ROWS + 1));
		}
	}

}
