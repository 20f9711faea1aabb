package dev.gatewaylab.study;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;

/**
 * Text that every database of the lab stores exactly as sent: no control character
 * (U+0000–U+001F, U+007F–U+009F) except, where {@link #lines()} allows line breaks, tab,
 * line feed and carriage return; and no unpaired UTF-16 surrogate ({@code "\ud800"} in
 * JSON). PostgreSQL refuses NUL in text, and its driver writes an unpaired surrogate as
 * {@code ?}, while H2 stores both: without this check the same request is 201 on one
 * database and refused or altered on the other. The 400 names the field, the character
 * and its position. A null value is valid (other constraints say whether it is required).
 */
@Documented
@Constraint(validatedBy = PlainText.Validator.class)
@Target({ ElementType.METHOD, ElementType.FIELD, ElementType.ANNOTATION_TYPE, ElementType.CONSTRUCTOR,
		ElementType.PARAMETER, ElementType.TYPE_USE })
@Retention(RetentionPolicy.RUNTIME)
@interface PlainText {

	/**
	 * Whether tab, line feed and carriage return are allowed (a description, not a
	 * title).
	 */
	boolean lines() default false;

	String message() default "must not contain control characters or unpaired surrogates";

	Class<?>[] groups() default {};

	Class<? extends Payload>[] payload() default {};

	/** Checks one value; the message names the first character refused. */
	class Validator implements ConstraintValidator<PlainText, String> {

		private boolean lines;

		@Override
		public void initialize(PlainText annotation) {
			this.lines = annotation.lines();
		}

		@Override
		public boolean isValid(String value, ConstraintValidatorContext context) {
			int at = (value != null) ? firstRefused(value, this.lines) : -1;
			if (at < 0) {
				return true;
			}
			char c = value.charAt(at);
			String what = Character.isSurrogate(c) ? "an unpaired surrogate" : "a control character";
			String allowed = this.lines ? " (tab and line breaks are allowed)" : "";
			context.disableDefaultConstraintViolation();
			context
				.buildConstraintViolationWithTemplate(
						String.format("must not contain %s: U+%04X at index %d%s", what, (int) c, at, allowed))
				.addConstraintViolation();
			return false;
		}

		/** The index of the first character refused, or -1. */
		static int firstRefused(String text, boolean lines) {
			for (int i = 0; i < text.length(); i++) {
				char c = text.charAt(i);
				if (Character.isHighSurrogate(c) && i + 1 < text.length()
						&& Character.isLowSurrogate(text.charAt(i + 1))) {
					i++; // a pair: one character outside the BMP
				}
				else if (Character.isSurrogate(c)) {
					return i;
				}
				else if (Character.getType(c) == Character.CONTROL
						&& !(lines && (c == '\t' || c == '\n' || c == '\r'))) {
					return i;
				}
			}
			return -1;
		}

	}

}
