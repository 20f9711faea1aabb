package dev.gatewaylab.accesslog.servlet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import dev.gatewaylab.accesslog.AccessLog;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

/**
 * The request with {@code X-Request-Id} as its one id: a client's missing, unsafe or
 * second id is never what the upstream sees. Every other header is the request's own.
 */
final class RequestIdRequest extends HttpServletRequestWrapper {

	private final String requestId;

	RequestIdRequest(HttpServletRequest request, String requestId) {
		super(request);
		this.requestId = requestId;
	}

	@Override
	public String getHeader(String name) {
		return isRequestId(name) ? this.requestId : super.getHeader(name);
	}

	@Override
	public Enumeration<String> getHeaders(String name) {
		return isRequestId(name) ? Collections.enumeration(List.of(this.requestId)) : super.getHeaders(name);
	}

	@Override
	public Enumeration<String> getHeaderNames() {
		List<String> names = new ArrayList<>();
		boolean present = false;
		for (Enumeration<String> own = super.getHeaderNames(); own.hasMoreElements();) {
			String name = own.nextElement();
			present |= isRequestId(name);
			names.add(name);
		}
		if (!present) {
			names.add(AccessLog.REQUEST_ID_HEADER);
		}
		return Collections.enumeration(names);
	}

	private static boolean isRequestId(String name) {
		return AccessLog.REQUEST_ID_HEADER.equalsIgnoreCase(name);
	}

}
