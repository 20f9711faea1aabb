package dev.gatewaylab.gateway.denylist;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;

class DenyListFailureAnalyzerTests {

	@Test
	void namesFileLineReasonAndTheFix() {
		DenyListException bad = new DenyListException(Path.of("/rules/deny.txt"), 7, "IPv6 rules are not supported",
				null);
		FailureAnalysis analysis = new DenyListFailureAnalyzer()
			.analyze(new BeanCreationException("denyList", "Failed to instantiate", bad));
		assertThat(analysis.getDescription()).contains("/rules/deny.txt:7: IPv6 rules are not supported");
		assertThat(analysis.getAction()).contains("Fix line 7 of /rules/deny.txt")
			.contains("GATEWAY_DENY_LIST_ON_ERROR=skip");
	}

	@Test
	void missingFileSaysHowToRunWithout() {
		DenyListException missing = new DenyListException(Path.of("/rules/none.txt"), 0, "no such file", null);
		FailureAnalysis analysis = new DenyListFailureAnalyzer().analyze(missing);
		assertThat(analysis.getDescription()).contains("/rules/none.txt: no such file");
		assertThat(analysis.getAction()).contains("unset GATEWAY_DENY_LIST_FILE");
	}

}
