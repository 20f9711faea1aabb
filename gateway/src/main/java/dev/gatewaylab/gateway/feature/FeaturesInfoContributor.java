package dev.gatewaylab.gateway.feature;

import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.stereotype.Component;

/**
 * {@code "features": [...]} on {@code /actuator/info}: the gateway's {@link Feature}s
 * that run, sorted.
 */
@Component
class FeaturesInfoContributor implements InfoContributor {

	private final ObjectProvider<Feature> features;

	FeaturesInfoContributor(ObjectProvider<Feature> features) {
		this.features = features;
	}

	@Override
	public void contribute(Info.Builder builder) {
		List<String> names = this.features.stream().map(Feature::feature).distinct().sorted().toList();
		builder.withDetail("features", names);
	}

}
