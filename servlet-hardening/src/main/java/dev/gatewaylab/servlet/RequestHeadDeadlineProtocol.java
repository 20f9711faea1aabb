package dev.gatewaylab.servlet;

import org.apache.coyote.Processor;
import org.apache.coyote.http11.Http11NioProtocol;

/**
 * Tomcat's NIO HTTP/1.1 connector with a deadline for the whole request head: request
 * line and header fields must arrive within {@link #getRequestHeadTimeout()} of its first
 * byte, else 408 problem+json and the connection closes. Tomcat's own timeouts are per
 * read ({@code connectionTimeout}: a head sending one byte every 20 s stayed open for
 * good) or for the body ({@code connectionUploadTimeout}); it has no total for the head
 * and no hook before the head is parsed (a {@code Valve} sees only complete heads). So
 * this protocol makes Tomcat's own processor, with the deadline added
 * ({@link RequestHeadDeadlineProcessor}); everything else is Tomcat's, Spring Boot's
 * {@code server.tomcat.*} settings included. Installed by
 * {@link ServletHardeningAutoConfiguration} (and {@link ManagementRequestHeadDeadline} on
 * the management port) by its class name, as Tomcat's {@code Connector} makes a protocol.
 */
public class RequestHeadDeadlineProtocol extends Http11NioProtocol {

	/**
	 * The request attribute with the detail of a 408 for a head that came too slowly, for
	 * the error report.
	 */
	static final String TIMED_OUT = RequestHeadDeadlineProtocol.class.getName() + ".timedOut";

	private volatile int requestHeadTimeout = 10_000;

	/**
	 * Milliseconds from the first byte of a request (blank lines before it included)
	 * until its head must be complete.
	 * @return the deadline in milliseconds
	 */
	public int getRequestHeadTimeout() {
		return this.requestHeadTimeout;
	}

	public void setRequestHeadTimeout(int millis) {
		if (millis <= 0) {
			throw new IllegalArgumentException("The request head timeout must be positive, not " + millis);
		}
		this.requestHeadTimeout = millis;
	}

	@Override
	protected Processor createProcessor() {
		return new RequestHeadDeadlineProcessor(this, getAdapter());
	}

}
