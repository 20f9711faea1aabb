package dev.gatewaylab.servlet;

import java.util.Map;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * A servlet app with this library and nothing else of the lab: no domain, no database, no
 * exception handling of its own. One JSON resource stands in for an app's API, so that
 * the tests see what a request gets when it gets past the hardening.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(HardenedTestApplication.Things.class)
class HardenedTestApplication {

	/** {@code GET /api/things/1} is the one thing there is; any other id is a 404. */
	@RestController
	static class Things {

		@GetMapping("/api/things/{id}")
		Map<String, Object> thing(@PathVariable long id) {
			if (id != 1) {
				throw new ErrorResponseException(HttpStatus.NOT_FOUND);
			}
			return Map.of("id", id);
		}

		@PostMapping("/api/things")
		Map<String, Object> create(@RequestBody Map<String, Object> thing) {
			return thing;
		}

	}

}
