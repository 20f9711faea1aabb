package dev.gatewaylab.study;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * What a study's text may hold, from the API to the database and back, on H2 (and, in
 * {@link StudyTextPostgresTests}, on PostgreSQL, with the very same tests): a control
 * character or an unpaired surrogate is 400 problem+json naming the field, character and
 * position, and nothing is stored; everything else — tab and line breaks in the
 * description, any printable character, characters outside the BMP — comes back exactly
 * as sent.
 */
@SpringBootTest(classes = StudyTestApplication.class,
		properties = { "spring.flyway.locations=classpath:db/migration/study",
				"spring.datasource.url=jdbc:h2:mem:study-text;DB_CLOSE_DELAY=-1" })
@AutoConfigureMockMvc
class StudyTextTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@ParameterizedTest(name = "{0}: {1}")
	@CsvSource(delimiter = '|',
			textBlock = """
					title       | "a\\u0000b"     | must not contain a control character: U+0000 at index 1
					title       | "tab\\there"    | must not contain a control character: U+0009 at index 3
					title       | "line\\nbreak"  | must not contain a control character: U+000A at index 4
					title       | "\\u007f"       | must not contain a control character: U+007F at index 0
					title       | "\\u0085next"   | must not contain a control character: U+0085 at index 0
					title       | "a\\ud800"      | must not contain an unpaired surrogate: U+D800 at index 1
					title       | "\\udc00a"      | must not contain an unpaired surrogate: U+DC00 at index 0
					description | "\\u0000"       | must not contain a control character: U+0000 at index 0 (tab and line breaks are allowed)
					description | "ok\\r\\n\\u001b" | must not contain a control character: U+001B at index 4 (tab and line breaks are allowed)
					description | "\\ud83d"       | must not contain an unpaired surrogate: U+D83D at index 0 (tab and line breaks are allowed)
					""")
	void aControlCharacterOrUnpairedSurrogateIs400NamingTheFieldAndNothingIsStored(String field, String json,
			String message) throws Exception {
		long before = count();
		String body = "{\"title\":\"Text\",\"capacity\":3," + "\"" + field + "\":" + json + "}";
		this.mvc.perform(post("/api/studies").contentType(MediaType.APPLICATION_JSON).content(body))
			.andExpect(status().isBadRequest())
			.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.errors.length()").value(1))
			.andExpect(jsonPath("$.errors[0].field").value(field))
			.andExpect(jsonPath("$.errors[0].message").value(message));
		assertThat(count()).isEqualTo(before);
	}

	@Test
	void printableTextTabsLineBreaksAndCharactersOutsideTheBmpComeBackAsSent() throws Exception {
		String title = "Caf\u00e9 \u201cTLS\u201d \u6f22\u5b57 \ud83d\ude80 \u200b\u00a0\ufffd \ufeff!";
		String description = "line one\r\nline two\n\tindented \ud834\udd1e \u2028 end";
		String body = "{\"title\":" + json(title) + ",\"description\":" + json(description) + ",\"capacity\":3}";
		String location = this.mvc.perform(post("/api/studies").contentType(MediaType.APPLICATION_JSON).content(body))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getHeader("Location");
		this.mvc.perform(get(location))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.title").value(title))
			.andExpect(jsonPath("$.description").value(description));
	}

	private long count() {
		return this.jdbc.sql("SELECT COUNT(*) FROM study").query(Long.class).single();
	}

	/** A JSON string with every non-ASCII character escaped, as a client may send it. */
	private static String json(String text) {
		StringBuilder out = new StringBuilder("\"");
		for (char c : text.toCharArray()) {
			out.append((c < 0x20 || c > 0x7e || c == '"' || c == '\\') ? String.format("\\u%04x", (int) c)
					: String.valueOf(c));
		}
		return out.append('"').toString();
	}

}
