package dev.gatewaylab.levers;

import java.util.Map;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** {@link ConditionalOnLever}'s condition. */
class OnLeverCondition extends SpringBootCondition {

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		Map<String, Object> attributes = metadata.getAnnotationAttributes(ConditionalOnLever.class.getName());
		Lever[] levers = (attributes != null) ? (Lever[]) attributes.get("value") : new Lever[0];
		for (Lever lever : levers) {
			if (!lever.isEnabled(context.getEnvironment())) {
				return ConditionOutcome.noMatch(lever.property() + " or " + Lever.ALL_ENABLED + " is false");
			}
		}
		return ConditionOutcome.match("lever on");
	}

}
