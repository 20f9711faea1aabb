package dev.gatewaylab.gateway.denylist;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

import dev.gatewaylab.denylist.DenyListException;
import dev.gatewaylab.denylist.DenyListException.Kind;

import static org.assertj.core.api.Assertions.assertThat;

class DenyListFailureAnalyzerTests {

	FailureAnalysis analyze(DenyListException cause) {
		return new DenyListFailureAnalyzer()
			.analyze(new BeanCreationException("denyList", "Failed to instantiate", cause));
	}

	@Test
	void aBadLineIsOneLineNamingFileSizeLineReasonAndTheSetting() {
		DenyListException bad = new DenyListException(Path.of("/rules/deny.txt"), 7, "IPv6 rules are not supported",
				Kind.BAD_LINE, 5_000_000, null);
		FailureAnalysis analysis = analyze(bad);
		assertThat(analysis.getDescription()).isEqualTo("Deny list /rules/deny.txt (4 MB) cannot be loaded: line 7: "
				+ "IPv6 rules are not supported — fix line 7 of /rules/deny.txt (format: docs/deny-list.md), or set "
				+ "GATEWAY_DENY_LIST_ON_ERROR=skip to skip bad lines (logged and counted in "
				+ "gateway_deny_list_skipped_lines).")
			.doesNotContain("\n");
		assertThat(analysis.getAction()).contains("GATEWAY_DENY_LIST_ON_ERROR=skip");
		assertThat(analysis.getCause()).as("no stack trace in the report").isNull();
	}

	@Test
	void eachKindNamesTheSettingThatFixesIt() {
		Path list = Path.of("/rules/big.txt");
		assertThat(analyze(new DenyListException(list, 0, "no such file", Kind.SOURCE, -1, null)).getDescription())
			.isEqualTo("Deny list /rules/big.txt cannot be loaded: no such file — point GATEWAY_DENY_LIST_FILE at a "
					+ "readable rule file, or unset it to run without a deny list.");
		assertThat(analyze(new DenyListException(list, 0, "cannot be compiled into /rules: No space left on device",
				Kind.COMPILED, 441L << 20, null))
			.getDescription()).startsWith("Deny list /rules/big.txt (441 MB) cannot be loaded: cannot be compiled")
			.contains("GATEWAY_DENY_LIST_COMPILED_DIR");
		assertThat(analyze(new DenyListException(list, 0, "out of heap", Kind.HEAP, 441L << 20, null)).getDescription())
			.endsWith("raise -Xmx in GATEWAY_JAVA_OPTS.");
		assertThat(analyze(new DenyListException(list, 0, "too large", Kind.TOO_LARGE, 10L << 30, null)).getAction())
			.contains("GATEWAY_DENY_LIST_FILE");
	}

}
