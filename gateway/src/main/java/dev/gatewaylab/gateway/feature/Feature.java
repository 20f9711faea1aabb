package dev.gatewaylab.gateway.feature;

/**
 * A feature of the lab's gateway that a stock Spring Cloud Gateway does not have,
 * implemented by the bean that provides it: while the bean exists the gateway runs it,
 * and says so on {@code /actuator/info} ({@link FeaturesInfoContributor}), where the
 * runner reads which features its figures include.
 */
public interface Feature {

	/** What the feature is, in a few words ("login limit"). */
	String feature();

}
