package dev.gatewaylab.servlet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Request bodies over {@code servlet-hardening.max-body-size} get 413 problem+json: at
 * once when {@code Content-Length} says so, and for a chunked body (no length) as soon as
 * the bytes read pass the limit — Tomcat bounds form posts only, and Jackson would read
 * any JSON body to its end. The chunked case surfaces as a {@link BodyTooLargeException}
 * inside whatever was reading, which the app's error handling answers with 413
 * (study-core's {@code StudyProblemHandler} for the study API).
 */
final class BodySizeLimitFilter extends OncePerRequestFilter {

	private final long maxBytes;

	BodySizeLimitFilter(long maxBytes) {
		this.maxBytes = maxBytes;
	}

	long maxBytes() {
		return this.maxBytes;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		long length = request.getContentLengthLong();
		if (length > this.maxBytes) {
			writeTooLarge(response, this.maxBytes);
			return;
		}
		chain.doFilter((length < 0) ? new Limited(request, this.maxBytes) : request, response);
	}

	static void writeTooLarge(HttpServletResponse response, long maxBytes) throws IOException {
		byte[] body = ("{\"type\":\"about:blank\",\"title\":\"Content Too Large\",\"status\":413,"
				+ "\"detail\":\"The request body is larger than " + maxBytes + " bytes.\"}")
			.getBytes(StandardCharsets.UTF_8);
		response.setStatus(HttpStatus.PAYLOAD_TOO_LARGE.value());
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.setContentLength(body.length);
		response.setHeader("Connection", "close"); // the rest of the body is not read
		response.getOutputStream().write(body);
	}

	private static final class Limited extends HttpServletRequestWrapper {

		private final long maxBytes;

		private ServletInputStream stream;

		Limited(HttpServletRequest request, long maxBytes) {
			super(request);
			this.maxBytes = maxBytes;
		}

		@Override
		public ServletInputStream getInputStream() throws IOException {
			if (this.stream == null) {
				this.stream = new Counting(super.getInputStream(), this.maxBytes);
			}
			return this.stream;
		}

	}

	private static final class Counting extends ServletInputStream {

		private final ServletInputStream in;

		private final long maxBytes;

		private long read;

		Counting(ServletInputStream in, long maxBytes) {
			this.in = in;
			this.maxBytes = maxBytes;
		}

		@Override
		public int read() throws IOException {
			int b = this.in.read();
			if (b >= 0) {
				count(1);
			}
			return b;
		}

		@Override
		public int read(byte[] buffer, int offset, int length) throws IOException {
			int n = this.in.read(buffer, offset, length);
			if (n > 0) {
				count(n);
			}
			return n;
		}

		private void count(int n) throws BodyTooLargeException {
			this.read += n;
			if (this.read > this.maxBytes) {
				throw new BodyTooLargeException(this.maxBytes);
			}
		}

		@Override
		public boolean isFinished() {
			return this.in.isFinished();
		}

		@Override
		public boolean isReady() {
			return this.in.isReady();
		}

		@Override
		public void setReadListener(ReadListener listener) {
			this.in.setReadListener(listener);
		}

	}

}
