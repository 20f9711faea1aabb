package dev.gatewaylab.study;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CategoriesTests {

	@Test
	void validationPatternAcceptsExactlyTheContractCategories() {
		assertThat(List.of(Categories.PATTERN.split("\\|"))).isEqualTo(Categories.ALL);
		assertThat(Categories.MESSAGE).endsWith(String.join(", ", Categories.ALL));
		assertThat(Categories.ALL).contains(Categories.DEFAULT);
	}

}
