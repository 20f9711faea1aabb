package dev.gatewaylab.study;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** One entry of the {@code errors} array of a 400 problem. */
@JsonPropertyOrder({ "field", "message" })
record InvalidField(String field, String message) {
}
