package dev.gatewaylab.study;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** One page of the study list. */
@JsonPropertyOrder({ "content", "page", "size", "totalElements", "totalPages" })
record StudyPage(List<Study> content, int page, int size, long totalElements, long totalPages) {

	static StudyPage of(List<Study> content, int page, int size, long totalElements) {
		return new StudyPage(content, page, size, totalElements, (totalElements + size - 1) / size);
	}

}
