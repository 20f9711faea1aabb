package dev.gatewaylab.gateway.denylist;

/** What a bad line in a deny list does ({@code GATEWAY_DENY_LIST_ON_ERROR}). */
public enum OnError {

	/** The first bad line fails the whole load. */
	FAIL,

	/** Bad lines are skipped, counted and the first few logged. */
	SKIP

}
