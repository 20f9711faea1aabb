package dev.gatewaylab.monolith.login;

import java.util.Locale;

/**
 * The one reading of a submitted user name, for the login limit and the sign-in alike:
 * {@link LoginAttemptLimiter} hands Spring Security's form login the canonical name
 * instead of what was sent, so the budget it charges is always that of the name the
 * sign-in looks up. Spring Security trims every character up to U+0020 from both ends,
 * control characters included, while the limit used to strip white space only: each
 * spelling with a control character ({@code "\u0001user7"}) had a fresh budget and still
 * signed user7 in. A name with a character no user name has — a control, format
 * (zero-width), private-use or unassigned character, a line or paragraph separator, an
 * unpaired surrogate — is refused outright.
 */
final class LoginName {

	/** A budget key is at most this long: a 10 kB "user name" is not a 10 kB key. */
	static final int MAX_KEY_LENGTH = 100;

	private LoginName() {
	}

	/**
	 * The name the sign-in looks up — the submitted one without white space at either end
	 * — or null when it has a character no user name has.
	 */
	static String canonical(String submitted) {
		for (int i = 0; i < submitted.length();) {
			int c = submitted.codePointAt(i);
			if (refused(c)) {
				return null;
			}
			i += Character.charCount(c);
		}
		return submitted.strip();
	}

	/**
	 * Whether a canonical name is blank: empty, or nothing but the space characters
	 * stripping leaves in (no-break spaces). No user has such a name.
	 */
	static boolean blank(String canonical) {
		return canonical.codePoints().allMatch(Character::isSpaceChar);
	}

	/**
	 * The login budget a canonical name spends: its lower case, so that spellings that
	 * differ only in case share one budget (the lookup is exact, so at most one of them
	 * is a user), cut to {@link #MAX_KEY_LENGTH} characters.
	 */
	static String budgetKey(String canonical) {
		String key = canonical.toLowerCase(Locale.ROOT);
		return key.substring(0, Math.min(key.length(), MAX_KEY_LENGTH));
	}

	private static boolean refused(int c) {
		return switch (Character.getType(c)) {
			case Character.CONTROL, Character.FORMAT, Character.PRIVATE_USE, Character.UNASSIGNED, Character.SURROGATE,
					Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR ->
				true;
			default -> false;
		};
	}

}
