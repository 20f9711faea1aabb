package dev.gatewaylab.servlet;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;

import org.apache.coyote.Adapter;
import org.apache.coyote.ErrorState;
import org.apache.coyote.http11.Http11Processor;
import org.apache.tomcat.util.net.AbstractEndpoint.Handler.SocketState;
import org.apache.tomcat.util.net.SocketEvent;
import org.apache.tomcat.util.net.SocketWrapperBase;

/**
 * Tomcat's HTTP/1.1 processor with a deadline for the request head. Tomcat parses a head
 * as its bytes arrive: when they run out mid-head, {@link #service} returns and the
 * processor waits, tied to the connection, for the next read event or for the poller's
 * read timeout, which counts from the last byte read. Here, each time a head is left
 * incomplete, that read timeout is cut to what is left of the deadline (counted from the
 * head's first byte, Tomcat's request start time), and put back before parsing goes on,
 * so a body is read with Tomcat's own timeout. When the deadline has passed — seen on the
 * next byte, or as the poller's read timeout — the request is answered as Tomcat answers
 * a head it cannot parse: status 408 through the host's error report valve
 * ({@link ProblemErrorReportValve}: problem+json), {@code Connection: close}, then the
 * close. Blank lines before a request line count as its head too: Tomcat lets go of such
 * a connection between reads, which would restart the count, so it is kept instead.
 */
final class RequestHeadDeadlineProcessor extends Http11Processor {

	private final RequestHeadDeadlineProtocol protocol;

	/** The read timeout is cut to the deadline on the connection this processor holds. */
	private boolean cut;

	/** Tomcat's read timeout from before the cut. */
	private long tomcatReadTimeout;

	RequestHeadDeadlineProcessor(RequestHeadDeadlineProtocol protocol, Adapter adapter) {
		super(protocol, adapter);
		this.protocol = protocol;
	}

	@Override
	public SocketState service(SocketWrapperBase<?> socket) throws IOException {
		if (this.cut && getSocketWrapper() == socket) {
			socket.setReadTimeout(this.tomcatReadTimeout);
		}
		this.cut = false;
		SocketState state = super.service(socket);
		long started = this.request.getStartTimeNanos();
		if (started == -1 || isAsync() || isUpgrade() || (state != SocketState.LONG && state != SocketState.OPEN)) {
			return state; // no head under way (OPEN with a start time: only blank lines
							// so far)
		}
		long left = this.protocol.getRequestHeadTimeout() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
		if (left <= 0) {
			return requestTimeout(detail(this.protocol.getRequestHeadTimeout()));
		}
		this.tomcatReadTimeout = socket.getReadTimeout();
		socket.setReadTimeout((this.tomcatReadTimeout > 0) ? Math.min(this.tomcatReadTimeout, left) : left);
		this.cut = true;
		return SocketState.LONG;
	}

	@Override
	public SocketState process(SocketWrapperBase<?> socket, SocketEvent event) throws IOException {
		if (event == SocketEvent.ERROR && this.cut && getSocketWrapper() == socket
				&& socket.getError() instanceof SocketTimeoutException) {
			// the poller's read timeout with the head incomplete: the deadline, or
			// Tomcat's
			// own timeout between two reads when that is the shorter one
			boolean deadline = this.tomcatReadTimeout <= 0 || socket.getReadTimeout() < this.tomcatReadTimeout;
			return requestTimeout((deadline) ? detail(this.protocol.getRequestHeadTimeout())
					: "Nothing of the request line and header fields arrived for " + this.tomcatReadTimeout + " ms.");
		}
		return super.process(socket, event);
	}

	private static String detail(int deadline) {
		return "The request line and header fields did not arrive within " + deadline + " ms.";
	}

	/**
	 * 408 through Tomcat's adapter, as Tomcat itself answers a head it refuses (400,
	 * 431): the error state keeps the request away from the application, the host's error
	 * report valve writes the body, the status closes the connection.
	 */
	private SocketState requestTimeout(String detail) {
		this.cut = false;
		this.request.setAttribute(RequestHeadDeadlineProtocol.TIMED_OUT, detail);
		this.response.setStatus(408);
		setErrorState(ErrorState.CLOSE_CLEAN, null);
		try {
			getAdapter().service(this.request, this.response);
		}
		catch (Exception ex) {
			// the client went away meanwhile: nothing to tell it
		}
		return SocketState.CLOSED;
	}

}
