package dev.gatewaylab.gateway.denylist;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import dev.gatewaylab.denylist.DenyListException;

/**
 * Turns a deny list that cannot be loaded at start-up into Spring Boot's short
 * "APPLICATION FAILED TO START" report: one line naming the list, its size, the problem
 * and the setting that fixes it — no stack trace.
 */
class DenyListFailureAnalyzer extends AbstractFailureAnalyzer<DenyListException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, DenyListException cause) {
		return new FailureAnalysis(line(cause), fix(cause), null);
	}

	/** The one line: list, size, problem, fix. */
	static String line(DenyListException cause) {
		String where = (cause.line() > 0) ? "line " + cause.line() + ": " : "";
		return "Deny list " + cause.describeList() + " cannot be loaded: " + where + cause.reason() + " — "
				+ fix(cause);
	}

	/** What to change, naming the setting. */
	static String fix(DenyListException cause) {
		return switch (cause.kind()) {
			case BAD_LINE -> "fix line " + cause.line() + " of " + cause.file()
					+ " (format: docs/deny-list.md), or set GATEWAY_DENY_LIST_ON_ERROR=skip to skip bad lines "
					+ "(logged and counted in gateway_deny_list_skipped_lines).";
			case SOURCE ->
				"point GATEWAY_DENY_LIST_FILE at a readable rule file, or unset it to run without a deny " + "list.";
			case COMPILED ->
				"free space there, or set GATEWAY_DENY_LIST_COMPILED_DIR to a writable directory with " + "room.";
			case TOO_LARGE -> "shorten the list GATEWAY_DENY_LIST_FILE names (merge ranges into wider CIDRs).";
			case HEAP -> "raise -Xmx in GATEWAY_JAVA_OPTS.";
		};
	}

}
