package dev.gatewaylab.testsupport;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The finders {@link ConfigurationDocsTests} relies on, on small inputs. */
class EnvironmentReadsTests {

	@Test
	void springPlaceholdersAreEnvironmentNamesWithOrWithoutDefault() {
		assertThat(EnvironmentReads.springPlaceholders("""
				port: ${PORT:8080}
				url: ${STUDY_SERVICE_URL}
				name: ${spring.application.name}
				path: ${env:LOG_DIR:-logs}
				""")).containsExactly("PORT", "STUDY_SERVICE_URL", "LOG_DIR");
	}

	@Test
	void composeReadsInterpolationsAndPassThroughKeysButNotEscapesOrValues() {
		assertThat(EnvironmentReads.compose("""
				services:
				  gateway:
				    cpus: ${LAB_APP_CPUS:-1.0}
				    image: x:${LAB_TAG-latest}
				    command: echo $${NOT_READ}
				    environment:
				      PORT: 8080
				      GATEWAY_LOGGING_MODE:      # passed through
				""")).containsExactlyInAnyOrder("LAB_APP_CPUS", "LAB_TAG", "GATEWAY_LOGGING_MODE");
	}

	@Test
	void javaLiteralsCountOnlyInSourcesThatReadTheEnvironment() {
		assertThat(
				EnvironmentReads.java("class A { String s = System.getenv(\"LAB_HOME\"); String t = \"OTHER_NAME\"; }"))
			.containsExactlyInAnyOrder("LAB_HOME", "OTHER_NAME");
		assertThat(
				EnvironmentReads.java("class B { static void apply(Map<String, String> env) { env.get(\"X_Y\"); } }"))
			.containsExactly("X_Y");
		assertThat(EnvironmentReads.java("class C { String t = \"GATEWAY_JAVA_OPTS\"; }")).isEmpty();
		assertThat(EnvironmentReads.java("@Value(\"${GATEWAY_X:1}\") int x;")).containsExactly("GATEWAY_X");
	}

	@Test
	void aShellScriptReadsWhatItUsesBeforeSettingIt() {
		assertThat(EnvironmentReads.shell("""
				#!/usr/bin/env bash
				ROOT="$(pwd)"
				TIMEOUT="${LAB_START_TIMEOUT:-180}"
				export GATEWAY_LOGIN_PER_IP="${GATEWAY_LOGIN_PER_IP:-1000000}"
				JAVA=${JAVA:-java}
				echo "$ROOT $TIMEOUT $HOME $SECONDS"
				OUT=""
				OUT=${OUT:-results}
				declare -A PORT
				PORT[x]=1
				for NAME in a b; do echo "$NAME ${PORT[x]}"; done
				""")).containsExactlyInAnyOrder("LAB_START_TIMEOUT", "GATEWAY_LOGIN_PER_IP", "JAVA");
	}

	@Test
	void singleQuotesCommentsAndQuotedHeredocsExpandNothing() {
		assertThat(EnvironmentReads.shell("""
				awk '{ n = $NF
				       print $NF }' file
				# uses $IN_A_COMMENT
				echo "a # b $IN_DOUBLE_QUOTES"
				cat <<'EOF'
				  $IN_A_QUOTED_HEREDOC
				EOF
				cat <<EOF
				  $IN_A_HEREDOC
				EOF
				read -r -a list <<< "$IN_A_HERE_STRING"
				""")).containsExactlyInAnyOrder("IN_DOUBLE_QUOTES", "IN_A_HEREDOC", "IN_A_HERE_STRING");
	}

	@Test
	void namesBuiltPerServiceGiveTheirSuffix() {
		assertThat(EnvironmentReads.shellNamesPerService("""
				var="$(echo "$1" | tr 'a-z-' 'A-Z_')_JAVA_HOME"
				home="${!var:-}"
				""")).containsExactly("JAVA_HOME");
	}

}
