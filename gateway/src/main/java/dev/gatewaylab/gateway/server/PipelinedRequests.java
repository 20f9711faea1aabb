package dev.gatewaylab.gateway.server;

import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * The requests of one connection that are under way: passed on by the guard, their final
 * response not yet written. HTTP/1.1 answers pipelined requests in order, so an answer
 * the guard gives itself must wait for these. Two counters and two type checks per
 * response, on the connection's event loop.
 */
final class PipelinedRequests {

	private int passed;

	private int answered;

	private boolean responseStarted;

	private boolean informational;

	/** A request was passed on. */
	void passed() {
		this.passed++;
	}

	/** Requests passed on and not yet answered. */
	int underWay() {
		return this.passed - this.answered;
	}

	/** Whether the final response to the latest request has begun but not ended. */
	boolean responseStarted() {
		return this.responseStarted;
	}

	/**
	 * A message on its way out; true when it ended a final response (100 Continue is no
	 * answer: the final response follows).
	 */
	boolean written(Object msg) {
		if (msg instanceof HttpResponse response) {
			this.informational = response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
			this.responseStarted = !this.informational;
		}
		if (!(msg instanceof LastHttpContent)) {
			return false;
		}
		if (this.informational) {
			this.informational = false;
			return false;
		}
		this.responseStarted = false;
		if (this.answered < this.passed) {
			this.answered++;
		}
		return true;
	}

}
