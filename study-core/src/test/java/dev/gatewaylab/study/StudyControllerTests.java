package dev.gatewaylab.study;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.never;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The API's contract for client errors: always a 4xx problem+json naming what was wrong,
 * never a 500.
 */
@WebMvcTest
@Import({ StudyController.class, StudyProblemHandler.class, StudyControllerTests.TwoSlowCalls.class })
class StudyControllerTests {

	private static final Study STUDY = new Study(42, "Spring study", "Weekly", "backend", 12, 7,
			Instant.parse("2024-03-01T09:00:00Z"));

	/** At most two slow calls at once here. */
	@TestConfiguration(proxyBeanMethods = false)
	static class TwoSlowCalls {

		@Bean
		SlowCallLimiter slowCallLimiter() {
			return new SlowCallLimiter(2);
		}

	}

	@Autowired
	private MockMvc mvc;

	@Autowired
	private SlowCallLimiter slowCalls;

	@MockitoBean
	private StudyRepository studies;

	@BeforeEach
	void knowStudy42() {
		given(this.studies.findById(anyLong())).willReturn(Optional.empty());
		given(this.studies.findById(42)).willReturn(Optional.of(STUDY));
	}

	@Test
	void studyJsonHasTheContractFieldsInOrder() throws Exception {
		this.mvc.perform(get("/api/studies/42"))
			.andExpect(status().isOk())
			.andExpect(content().contentType(MediaType.APPLICATION_JSON))
			.andExpect(content().string("{\"id\":42,\"title\":\"Spring study\",\"description\":\"Weekly\","
					+ "\"category\":\"backend\",\"capacity\":12,\"memberCount\":7,\"createdAt\":\"2024-03-01T09:00:00Z\"}"));
	}

	@Test
	void nullDescriptionIsWrittenAsNull() throws Exception {
		given(this.studies.findById(43)).willReturn(Optional.of(new Study(43, "t", null, "ai", 1, 0, Instant.EPOCH)));
		this.mvc.perform(get("/api/studies/43")).andExpect(content().string(containsString("\"description\":null")));
	}

	@Test
	void unknownIdIs404Problem() throws Exception {
		expectProblem(this.mvc.perform(get("/api/studies/7")), 404)
			.andExpect(jsonPath("$.detail").value("Study 7 not found"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "abc", "1.5", "99999999999999999999" })
	void nonNumericOrHugeIdIs400(String id) throws Exception {
		expectProblem(this.mvc.perform(get("/api/studies/" + id)), 400)
			.andExpect(jsonPath("$.errors[0].field").value("id"));
	}

	@Test
	void listUsesDefaultsForEmptyParameters() throws Exception {
		given(this.studies.findPage(null, 0, 20)).willReturn(StudyPage.of(List.of(STUDY), 0, 20, 1));
		this.mvc.perform(get("/api/studies?category=&page=&size="))
			.andExpect(status().isOk())
			.andExpect(content().string("{\"content\":["
					+ "{\"id\":42,\"title\":\"Spring study\",\"description\":\"Weekly\","
					+ "\"category\":\"backend\",\"capacity\":12,\"memberCount\":7,\"createdAt\":\"2024-03-01T09:00:00Z\"}"
					+ "],\"page\":0,\"size\":20,\"totalElements\":1,\"totalPages\":1}"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "size=-1", "size=0", "size=1000", "page=-1", "category=Backend", "category=nope",
			"size=abc", "page=99999999999" })
	void badListParameterIs400NamingIt(String query) throws Exception {
		String field = query.substring(0, query.indexOf('='));
		expectProblem(this.mvc.perform(get("/api/studies?" + query)), 400).andExpect(jsonPath("$.errors", hasSize(1)))
			.andExpect(jsonPath("$.errors[0].field").value(field));
		then(this.studies).should(never()).findPage(any(), any(Integer.class), any(Integer.class));
	}

	@Test
	void createReturns201WithLocationAndIgnoresUnknownFields() throws Exception {
		given(this.studies.create(new StudyRequest("New", null, "ai", 5)))
			.willReturn(new Study(10001, "New", null, "ai", 5, 0, Instant.parse("2024-03-01T09:00:00Z")));
		this.mvc.perform(postJson("{\"title\":\"New\",\"capacity\":5,\"category\":\"ai\",\"colour\":\"red\"}"))
			.andExpect(status().isCreated())
			.andExpect(header().string("Location", "/api/studies/10001"))
			.andExpect(jsonPath("$.id").value(10001));
	}

	@Test
	void everyInvalidFieldIsNamed() throws Exception {
		String body = "{\"title\":\" \",\"capacity\":1001,\"category\":\"cooking\",\"description\":\""
				+ "x".repeat(2001) + "\"}";
		expectProblem(this.mvc.perform(postJson(body)), 400)
			.andExpect(jsonPath("$.errors[*].field", contains("capacity", "category", "description", "title")));
	}

	@Test
	void missingRequiredFieldsAreNamed() throws Exception {
		expectProblem(this.mvc.perform(postJson("{}")), 400)
			.andExpect(jsonPath("$.errors[*].field", contains("capacity", "title")));
	}

	@Test
	void titleOfMoreThan100CharactersIsRejected() throws Exception {
		expectProblem(this.mvc.perform(postJson("{\"title\":\"" + "t".repeat(101) + "\",\"capacity\":1}")), 400)
			.andExpect(jsonPath("$.errors[0].field").value("title"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "99999999999", "1.5", "\"12\"", "\"abc\"", "true", "[1]", "{\"a\":1}" })
	void capacityOfWrongTypeOrTooLargeIs400(String capacity) throws Exception {
		expectProblem(this.mvc.perform(postJson("{\"title\":\"t\",\"capacity\":" + capacity + "}")), 400)
			.andExpect(jsonPath("$.errors[0].field").value("capacity"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "{bad", "", "[]", "\"text\"", "{\"title\":\"t\",\"capacity\":1", "null" })
	void malformedJsonIs400(String body) throws Exception {
		expectProblem(this.mvc.perform(postJson(body)), 400);
		then(this.studies).should(never()).create(any());
	}

	@Test
	void wrongContentTypeIs415() throws Exception {
		expectProblem(this.mvc.perform(post("/api/studies").contentType(MediaType.TEXT_PLAIN).content("title=x")), 415);
		expectProblem(this.mvc.perform(
				post("/api/studies").contentType(MediaType.APPLICATION_FORM_URLENCODED).content("title=x&capacity=1")),
				415);
	}

	@Test
	void wrongMethodIs405WithAllow() throws Exception {
		expectProblem(this.mvc.perform(patch("/api/studies/42")), 405).andExpect(header().exists("Allow"));
		expectProblem(this.mvc.perform(delete("/api/studies")), 405);
	}

	@Test
	void unknownApiPathIs404Problem() throws Exception {
		expectProblem(this.mvc.perform(get("/api/nothing-here")), 404);
	}

	@Test
	void updateAndDeleteOfUnknownIdAre404() throws Exception {
		given(this.studies.update(anyLong(), any())).willReturn(Optional.empty());
		expectProblem(this.mvc.perform(put("/api/studies/5").contentType(MediaType.APPLICATION_JSON)
			.content("{\"title\":\"t\",\"capacity\":1}")), 404);
		expectProblem(this.mvc.perform(delete("/api/studies/5")), 404);
	}

	@Test
	void deleteIs204() throws Exception {
		given(this.studies.deleteById(42)).willReturn(true);
		this.mvc.perform(delete("/api/studies/42")).andExpect(status().isNoContent());
	}

	@ParameterizedTest
	@ValueSource(strings = { "minMs=-1", "maxMs=10001", "minMs=5&maxMs=4", "minMs=x", "maxMs=99999999999" })
	void slowRejectsBadBounds(String query) throws Exception {
		expectProblem(this.mvc.perform(get("/api/studies/42/slow?" + query)), 400)
			.andExpect(jsonPath("$.errors").isArray());
	}

	@Test
	void slowCallsOverTheBoundAre503ProblemWithRetryAfterAndFreeTheirPermits() throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(2);
		try {
			List<Future<Integer>> sleeping = new ArrayList<>();
			for (int i = 0; i < 2; i++) {
				sleeping.add(pool.submit(() -> this.mvc.perform(get("/api/studies/42/slow?minMs=1500&maxMs=1500"))
					.andReturn()
					.getResponse()
					.getStatus()));
			}
			long deadline = System.nanoTime() + 5_000_000_000L;
			while (this.slowCalls.available() > 0 && System.nanoTime() < deadline) {
				Thread.sleep(10);
			}
			expectProblem(this.mvc.perform(get("/api/studies/42/slow?minMs=0&maxMs=0")), 503)
				.andExpect(header().string("Retry-After", "1"));
			for (Future<Integer> call : sleeping) {
				assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo(200);
			}
			assertThat(this.slowCalls.available()).isEqualTo(2);
			this.mvc.perform(get("/api/studies/42/slow?minMs=0&maxMs=0")).andExpect(status().isOk());
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void slowSleepsAtLeastMinMs() throws Exception {
		long start = System.nanoTime();
		this.mvc.perform(get("/api/studies/42/slow?minMs=50&maxMs=60"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.id").value(42));
		assertThatElapsedMillis(start).isGreaterThanOrEqualTo(50);
	}

	@Test
	void htmlPagesOutsideTheApiAreLeftToTheApplication() throws Exception {
		// What the monolith's browser pages get: Spring MVC's default handling,
		// not this library's problem JSON.
		this.mvc.perform(get("/some-page").accept(MediaType.TEXT_HTML))
			.andExpect(status().isNotFound())
			.andExpect(content().string(not(containsString("\"status\""))));
	}

	private static org.assertj.core.api.AbstractLongAssert<?> assertThatElapsedMillis(long startNanos) {
		return org.assertj.core.api.Assertions.assertThat((System.nanoTime() - startNanos) / 1_000_000);
	}

	private static org.springframework.test.web.servlet.RequestBuilder postJson(String body) {
		return post("/api/studies").contentType(MediaType.APPLICATION_JSON).content(body);
	}

	private static ResultActions expectProblem(ResultActions result, int status) throws Exception {
		return result.andExpect(status().is(status))
			.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.status").value(status));
	}

}
