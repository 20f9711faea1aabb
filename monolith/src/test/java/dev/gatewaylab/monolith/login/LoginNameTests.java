package dev.gatewaylab.monolith.login;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LoginNameTests {

	@Test
	void theSignInLooksUpExactlyTheNameWhoseBudgetIsCharged() {
		// Spring Security's form login trims what it gets (every character up to U+0020
		// at both ends): the canonical name must come through that unchanged, so the
		// name looked up is the one whose budget was charged
		for (int c = 0; c <= Character.MAX_CODE_POINT; c++) {
			String character = Character.toString(c);
			for (String submitted : List.of(character + "user7", "user7" + character, "us" + character + "er7")) {
				String name = LoginName.canonical(submitted);
				if (name != null) {
					assertThat(name.trim()).as("U+%04X", c).isEqualTo(name);
				}
			}
		}
	}

	@Test
	void controlFormatAndOtherNonPrintableCharactersAreRefused() {
		for (String submitted : List.of("\u0001user7", "user7\u0000", "\u001buser7", "user7\u0008", "\u000euser7",
				"\tuser7", "user7\n", "\u007fuser7", "\u0085user7", "\u200buser7", "user\u200d7", "\ufeffuser7",
				"\u2028user7", "user7\u2029", "\ue000user7", "\ud800user7", "user7\udc00", "\u0378user7")) {
			assertThat(LoginName.canonical(submitted))
				.as(submitted.codePoints().mapToObj(Integer::toHexString).toList().toString())
				.isNull();
		}
	}

	@Test
	void whiteSpaceAtEitherEndIsNotPartOfTheName() {
		assertThat(LoginName.canonical(" user7  ")).isEqualTo("user7");
		assertThat(LoginName.canonical("\u2003user7\u3000")).isEqualTo("user7");
		assertThat(LoginName.canonical("us er7")).isEqualTo("us er7");
		assertThat(LoginName.canonical("\u00a0user7")).as("no-break space is no white space to strip")
			.isEqualTo("\u00a0user7");
		assertThat(LoginName.canonical("J\u00fcrgen \ud83d\ude80")).isEqualTo("J\u00fcrgen \ud83d\ude80");
		assertThat(LoginName.canonical("   ")).isEmpty();
	}

	@Test
	void aNameOfNothingButSpaceCharactersIsBlank() {
		for (String blank : List.of("", " ", "\u2003\u3000", "\u00a0", "\u00a0\u2007\u202f")) {
			assertThat(LoginName.blank(LoginName.canonical(blank))).as(blank.codePoints().boxed().toList().toString())
				.isTrue();
		}
		for (String name : List.of("user7", "\u00a0user7", "us er7", ".")) {
			assertThat(LoginName.blank(LoginName.canonical(name))).as(name).isFalse();
		}
	}

	@Test
	void theBudgetKeyIgnoresCaseAndIsBounded() {
		assertThat(LoginName.budgetKey("USER7")).isEqualTo(LoginName.budgetKey("user7")).isEqualTo("user7");
		assertThat(LoginName.budgetKey("x".repeat(10_000))).hasSize(LoginName.MAX_KEY_LENGTH);
	}

}
