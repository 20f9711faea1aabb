package dev.gatewaylab.servlet;

import java.io.IOException;

/**
 * A chunked request body (no {@code Content-Length}) whose bytes read so far passed
 * {@code servlet-hardening.max-body-size}: thrown by the stream
 * {@link BodySizeLimitFilter} hands on, so it surfaces inside whatever was reading the
 * body (Jackson, a form parser), often as the cause of another exception. The app's error
 * handling answers it: a 413 problem+json that names {@link #maxBytes()}, with
 * {@code Connection: close} (the rest of the body is not read).
 */
public final class BodyTooLargeException extends IOException {

	private final long maxBytes;

	BodyTooLargeException(long maxBytes) {
		super("Request body larger than " + maxBytes + " bytes");
		this.maxBytes = maxBytes;
	}

	/** The limit that was passed, in bytes. */
	public long maxBytes() {
		return this.maxBytes;
	}

}
