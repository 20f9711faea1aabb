package dev.gatewaylab.servlet;

import java.util.List;

import jakarta.servlet.RequestDispatcher;
import org.junit.jupiter.api.Test;

import org.springframework.boot.webmvc.autoconfigure.error.ErrorViewResolver;
import org.springframework.boot.webmvc.error.DefaultErrorAttributes;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.servlet.ModelAndView;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Boot's {@code /error} page with the host app's HTML pages on
 * ({@code study.error.html-pages=true}, the monolith): a browser asking for a page gets
 * the app's HTML error view, an API request problem+json even when it accepts HTML.
 */
class ProblemErrorControllerTests {

	private final ErrorViewResolver pages = (request, status, model) -> new ModelAndView("error", model, status);

	private final ProblemErrorController controller = new ProblemErrorController(new DefaultErrorAttributes(),
			List.of(this.pages), true);

	@Test
	void aBrowsersPageErrorIsTheHtmlViewAndGetErrorItselfIs404() {
		MockHttpServletRequest request = errorFor("/nope", 404);
		assertThat(this.controller.errorHtml(request, new MockHttpServletResponse()).getViewName()).isEqualTo("error");
		MockHttpServletRequest direct = new MockHttpServletRequest("GET", "/error");
		ModelAndView page = this.controller.errorHtml(direct, new MockHttpServletResponse());
		assertThat(page.getStatus()).hasToString("404 NOT_FOUND");
	}

	@Test
	void anApiErrorIsProblemJsonEvenForAClientThatAcceptsHtml() throws Exception {
		MockHttpServletResponse response = new MockHttpServletResponse();
		assertThat(this.controller.errorHtml(errorFor("/api/nope", 404), response)).isNull();
		assertThat(response.getStatus()).isEqualTo(404);
		assertThat(response.getContentType()).isEqualTo("application/problem+json");
		assertThat(response.getContentAsString())
			.isEqualTo("{\"type\":\"about:blank\",\"title\":\"Not Found\",\"status\":404}");
	}

	private static MockHttpServletRequest errorFor(String path, int status) {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/error");
		request.setAttribute(RequestDispatcher.ERROR_STATUS_CODE, status);
		request.setAttribute(RequestDispatcher.ERROR_REQUEST_URI, path);
		request.addHeader("Accept", "text/html");
		return request;
	}

}
