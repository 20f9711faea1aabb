package dev.gatewaylab.servlet;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.ServletRequest;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The body size limit alone: a body without {@code Content-Length} (chunked) passes the
 * filter and fails whoever reads past the limit, naming it; one within the limit reads to
 * its end. (A declared length over the limit is answered on a real server:
 * {@link HardenedServerTests}.)
 */
class BodySizeLimitFilterTests {

	private final BodySizeLimitFilter filter = new BodySizeLimitFilter(10);

	@Test
	void aChunkedBodyFailsItsReaderOnceTheBytesReadPassTheLimit() throws Exception {
		ServletRequest passed = filtered(chunked("12345678901"));
		InputStream body = passed.getInputStream();
		assertThat(body.readNBytes(10)).hasSize(10);
		assertThatExceptionOfType(BodyTooLargeException.class).isThrownBy(body::read)
			.satisfies((ex) -> assertThat(ex.maxBytes()).isEqualTo(10));
	}

	@Test
	void aChunkedBodyWithinTheLimitReadsToItsEnd() throws Exception {
		ServletRequest passed = filtered(chunked("1234567890"));
		assertThat(new String(passed.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("1234567890");
	}

	private ServletRequest filtered(MockHttpServletRequest request) throws Exception {
		MockFilterChain chain = new MockFilterChain();
		MockHttpServletResponse response = new MockHttpServletResponse();
		this.filter.doFilter(request, response, chain);
		assertThat(response.getStatus()).as("passed on").isEqualTo(200);
		return chain.getRequest();
	}

	/** A request whose body has no declared length, as a chunked one. */
	private static MockHttpServletRequest chunked(String body) {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/things") {
			@Override
			public long getContentLengthLong() {
				return -1;
			}
		};
		request.setContent(body.getBytes(StandardCharsets.UTF_8));
		return request;
	}

}
