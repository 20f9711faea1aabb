package dev.gatewaylab.study;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;

/**
 * Accepts only JSON integers that fit an {@code int}: Jackson's default would turn
 * {@code 1.5} into 1 and {@code "12"} into 12, and a request with a wrong type should get
 * a 400 instead.
 */
class StrictIntegerDeserializer extends ValueDeserializer<Integer> {

	@Override
	public Integer deserialize(JsonParser parser, DeserializationContext context) {
		if (parser.currentToken() == JsonToken.VALUE_NUMBER_INT) {
			// throws InputCoercionException beyond the int range
			return parser.getIntValue();
		}
		return (Integer) context.handleUnexpectedToken(Integer.class, parser);
	}

}
