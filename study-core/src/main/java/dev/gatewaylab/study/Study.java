package dev.gatewaylab.study;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A study as served by both study-service and monolith. The annotations pin the JSON
 * shape (field order, nulls written, ISO-8601 instant) so that an application's Jackson
 * settings cannot make the two apps differ.
 */
@JsonPropertyOrder({ "id", "title", "description", "category", "capacity", "memberCount", "createdAt" })
@JsonInclude(JsonInclude.Include.ALWAYS)
record Study(long id, String title, String description, String category, int capacity, int memberCount,
		@JsonFormat(shape = JsonFormat.Shape.STRING) Instant createdAt) {
}
