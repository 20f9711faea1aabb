package dev.gatewaylab.study;

import java.net.URI;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * The study API. Parameter constraints are checked by Spring MVC's built-in method
 * validation and reported by {@link StudyProblemHandler}.
 */
@RestController
@RequestMapping("/api/studies")
class StudyController {

	static final int MAX_SLOW_MS = 10_000;

	private final StudyRepository studies;

	private final SlowCallLimiter slowCalls;

	StudyController(StudyRepository studies, SlowCallLimiter slowCalls) {
		this.studies = studies;
		this.slowCalls = slowCalls;
	}

	@GetMapping
	StudyPage list(
			@RequestParam(name = "category", defaultValue = "") @Pattern(regexp = "(" + Categories.PATTERN + ")?",
					message = Categories.MESSAGE) String category,
			@RequestParam(name = "page", defaultValue = "0") @Min(0) int page,
			@RequestParam(name = "size", defaultValue = "20") @Min(1) @Max(100) int size) {
		return this.studies.findPage(category.isEmpty() ? null : category, page, size);
	}

	@GetMapping("/{id}")
	Study get(@PathVariable("id") long id) {
		return this.studies.findById(id).orElseThrow(() -> new StudyNotFoundException(id));
	}

	@PostMapping
	ResponseEntity<Study> create(@Valid @RequestBody StudyRequest request) {
		Study study = this.studies.create(request);
		// Relative, so it stays right behind the gateway
		// without forwarded-header handling.
		return ResponseEntity.created(URI.create("/api/studies/" + study.id())).body(study);
	}

	@PutMapping("/{id}")
	Study update(@PathVariable("id") long id, @Valid @RequestBody StudyRequest request) {
		return this.studies.update(id, request).orElseThrow(() -> new StudyNotFoundException(id));
	}

	@DeleteMapping("/{id}")
	@ResponseStatus(HttpStatus.NO_CONTENT)
	void delete(@PathVariable("id") long id) {
		if (!this.studies.deleteById(id)) {
			throw new StudyNotFoundException(id);
		}
	}

	/**
	 * Holds the request thread for a uniform random time on purpose: it shows what
	 * thread-per-request costs (and what virtual threads change) behind the gateway. At
	 * most {@code study.slow.max-concurrent} at once ({@link SlowCallLimiter}).
	 */
	@GetMapping("/{id}/slow")
	Study slow(@PathVariable("id") long id,
			@RequestParam(name = "minMs", defaultValue = "200") @Min(0) @Max(MAX_SLOW_MS) int minMs,
			@RequestParam(name = "maxMs", defaultValue = "800") @Min(0) @Max(MAX_SLOW_MS) int maxMs)
			throws InterruptedException {
		if (minMs > maxMs) {
			ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
					"minMs must not be greater than maxMs");
			problem.setProperty("errors", List.of(new InvalidField("maxMs", "must be greater than or equal to minMs")));
			throw new ErrorResponseException(HttpStatus.BAD_REQUEST, problem, null);
		}
		Study study = get(id);
		this.slowCalls.sleep(ThreadLocalRandom.current().nextLong(minMs, maxMs + 1L));
		return study;
	}

}
