package dev.gatewaylab.monolith.login;

import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Seeds the documented demo users {@code user1}..{@code user1000} (password
 * {@code password}) into an empty {@code app_user} table. Runs before the app reports
 * ready.
 */
@Component
class DemoUserSeeder implements ApplicationRunner {

	static final int USER_COUNT = 1000;

	static final String DEMO_PASSWORD = "password";

	private static final Logger logger = LoggerFactory.getLogger(DemoUserSeeder.class);

	private final JdbcTemplate jdbc;

	private final TransactionTemplate transaction;

	private final PasswordEncoder passwordEncoder;

	DemoUserSeeder(JdbcTemplate jdbc, TransactionTemplate transaction, PasswordEncoder passwordEncoder) {
		this.jdbc = jdbc;
		this.transaction = transaction;
		this.passwordEncoder = passwordEncoder;
	}

	@Override
	public void run(ApplicationArguments args) {
		Integer existing = this.jdbc.queryForObject("SELECT COUNT(*) FROM app_user", Integer.class);
		if (existing != null && existing > 0) {
			logger.info("{} users present, demo users not seeded", existing);
			return;
		}
		long start = System.nanoTime();
		// One hash for all 1000 demo users: a BCrypt hash costs ~100 ms at cost 10,
		// so hashing each would add ~100 s to start-up. Shared salt is acceptable only
		// because this is demo data with a published password. Login still pays the
		// full BCrypt cost on every check.
		String hash = this.passwordEncoder.encode(DEMO_PASSWORD);
		long hashed = System.nanoTime();
		List<Object[]> rows = new ArrayList<>(USER_COUNT);
		for (int i = 1; i <= USER_COUNT; i++) {
			rows.add(new Object[] { "user" + i, hash });
		}
		try {
			this.transaction.executeWithoutResult((status) -> this.jdbc
				.batchUpdate("INSERT INTO app_user (username, password, enabled) VALUES (?, ?, TRUE)", rows));
		}
		catch (DuplicateKeyException ex) {
			// Another instance sharing the database seeded it first.
			logger.info("Demo users already seeded by another instance");
			return;
		}
		logger.info("Seeded {} demo users in {} ms (one BCrypt hash {} ms, batch insert {} ms)", USER_COUNT,
				millis(System.nanoTime() - start), millis(hashed - start), millis(System.nanoTime() - hashed));
	}

	private static long millis(long nanos) {
		return nanos / 1_000_000;
	}

}
