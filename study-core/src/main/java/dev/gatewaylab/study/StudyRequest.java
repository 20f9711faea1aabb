package dev.gatewaylab.study;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * Body of POST and PUT. Boxed {@code capacity} so that a missing value is reported rather
 * than read as 0. Text fields are {@link PlainText}, so that H2 and PostgreSQL store the
 * same values.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
record StudyRequest(@NotBlank @Size(max = 100) @PlainText String title,
		@Size(max = 2000) @PlainText(lines = true) String description,
		@Pattern(regexp = Categories.PATTERN, message = Categories.MESSAGE) String category,
		@NotNull @Min(1) @Max(1000) @JsonDeserialize(using = StrictIntegerDeserializer.class) Integer capacity) {

	String categoryOrDefault() {
		return (this.category != null) ? this.category : Categories.DEFAULT;
	}

}
