package dev.gatewaylab.study;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Flyway migrations, the seed and the SQL on H2, wired by the real auto-configuration
 * (its web part stays off in this non-web slice). Each test rolls back; the seed itself
 * is committed by Flyway at start-up.
 */
@JdbcTest(properties = "spring.flyway.locations=classpath:db/migration/study")
@ImportAutoConfiguration(StudyAutoConfiguration.class)
class StudyRepositoryTests {

	/**
	 * CRC32 of every seed row's {@code toString()}: changes whenever the seed data would
	 * change.
	 */
	private static final long SEED_CHECKSUM = 3806225806L;

	@Autowired
	private StudyRepository studies;

	@Autowired
	private JdbcClient jdbc;

	@Autowired
	private StudyReader reader;

	@Test
	void seedInsertsExactlyTheGeneratedRows() {
		List<Study> stored = this.jdbc.sql("SELECT id FROM study ORDER BY id")
			.query(Long.class)
			.list()
			.stream()
			.map((id) -> this.studies.findById(id).orElseThrow())
			.toList();
		assertThat(stored).hasSize(10_000).isEqualTo(StudySeed.rows());
	}

	@Test
	void seedIsTheSameOnEveryStart() {
		assertThat(checksum(StudySeed.rows())).isEqualTo(SEED_CHECKSUM);
		assertThat(this.studies.findById(1)).hasValueSatisfying((study) -> {
			assertThat(study.title()).isEqualTo("Hands-on TLS #1");
			assertThat(study.createdAt()).hasToString("2024-03-01T09:00:00Z");
		});
		assertThat(this.studies.findById(10_000)).hasValueSatisfying((study) -> {
			assertThat(study.title()).isEqualTo("Weekly Web app pentesting #10000");
			assertThat(study.createdAt()).hasToString("2024-03-08T07:39:00Z");
		});
	}

	@Test
	void readApiServesTheFirstPageByIdAndRejectsBadSizes() {
		List<StudyReader.StudySummary> first = this.reader.firstPage(20);
		assertThat(first).hasSize(20);
		assertThat(first).extracting(StudyReader.StudySummary::id)
			.containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, 20).boxed().toList());
		Study one = this.studies.findById(1).orElseThrow();
		assertThat(first.get(0))
			.isEqualTo(new StudyReader.StudySummary(1, one.title(), one.category(), one.capacity(), one.memberCount()));
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException().isThrownBy(() -> this.reader.firstPage(0));
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> this.reader.firstPage(StudyReader.MAX_PAGE_SIZE + 1));
	}

	@Test
	void identityContinuesAfterTheSeed() {
		Study created = this.studies.create(new StudyRequest("New study", null, null, 5));
		assertThat(created.id()).isGreaterThan(10_000);
		assertThat(created.category()).isEqualTo("general");
		assertThat(created.memberCount()).isZero();
		assertThat(this.studies.findById(created.id())).contains(created);
	}

	@Test
	void pageFiltersByCategoryAndCountsTotals() {
		StudyPage all = this.studies.findPage(null, 0, 20);
		assertThat(all.totalElements()).isEqualTo(10_000);
		assertThat(all.totalPages()).isEqualTo(500);
		assertThat(all.content()).extracting(Study::id).startsWith(1L, 2L, 3L).hasSize(20);

		long ai = StudySeed.rows().stream().filter((study) -> study.category().equals("ai")).count();
		StudyPage aiPage = this.studies.findPage("ai", 1, 7);
		assertThat(aiPage.totalElements()).isEqualTo(ai);
		assertThat(aiPage.totalPages()).isEqualTo((ai + 6) / 7);
		assertThat(aiPage.content()).hasSize(7).allSatisfy((study) -> assertThat(study.category()).isEqualTo("ai"));

		assertThat(this.studies.findPage(null, 1_000_000, 100).content()).isEmpty();
	}

	@Test
	void updateReplacesFieldsAndKeepsMembersWithinCapacity() {
		Study before = this.studies.findById(1).orElseThrow();
		Study after = this.studies.update(1, new StudyRequest("Renamed", "new text", "data", 1)).orElseThrow();
		assertThat(after).isEqualTo(
				new Study(1, "Renamed", "new text", "data", 1, Math.min(before.memberCount(), 1), before.createdAt()));
		assertThat(this.studies.update(999_999, new StudyRequest("x", null, null, 1))).isEmpty();
	}

	@Test
	void deleteRemovesTheRowOnce() {
		assertThat(this.studies.deleteById(2)).isTrue();
		assertThat(this.studies.findById(2)).isEmpty();
		assertThat(this.studies.deleteById(2)).isFalse();
	}

	static long checksum(List<Study> rows) {
		CRC32 crc = new CRC32();
		rows.forEach((study) -> crc.update(study.toString().getBytes(StandardCharsets.UTF_8)));
		return crc.getValue();
	}

}
