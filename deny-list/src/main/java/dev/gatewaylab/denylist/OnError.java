package dev.gatewaylab.denylist;

/**
 * What a bad line in a deny list does (the gateway's {@code GATEWAY_DENY_LIST_ON_ERROR},
 * the tool's {@code --on-error}).
 */
public enum OnError {

	/** The first bad line fails the whole load. */
	FAIL,

	/** Bad lines are skipped, counted and the first few logged. */
	SKIP

}
