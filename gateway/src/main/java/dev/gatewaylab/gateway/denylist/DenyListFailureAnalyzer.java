package dev.gatewaylab.gateway.denylist;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a bad deny list at start-up into Spring Boot's short "APPLICATION FAILED TO
 * START" report.
 */
class DenyListFailureAnalyzer extends AbstractFailureAnalyzer<DenyListException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, DenyListException cause) {
		String description = "The deny list (GATEWAY_DENY_LIST_FILE) cannot be loaded:\n\n    " + cause.getMessage();
		String action = (cause.line() > 0)
				? "Fix line " + cause.line() + " of " + cause.file() + " (format: docs/deny-list.md), or start with "
						+ "GATEWAY_DENY_LIST_ON_ERROR=skip to skip bad lines (they are logged and counted in "
						+ "gateway_deny_list_skipped_lines)."
				: "Check that " + cause.file() + " exists and is readable, or unset GATEWAY_DENY_LIST_FILE to run "
						+ "without a deny list.";
		return new FailureAnalysis(description, action, cause);
	}

}
