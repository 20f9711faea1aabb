package dev.gatewaylab.gateway.proxy;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.cloud.gateway.filter.factory.RetryGatewayFilterFactory.BackoffConfig;
import org.springframework.cloud.gateway.filter.factory.RetryGatewayFilterFactory.JitterConfig;
import org.springframework.cloud.gateway.filter.factory.RetryGatewayFilterFactory.RetryConfig;
import org.springframework.http.HttpMethod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class UpstreamRetryGatewayFilterFactoryTests {

	private final UpstreamRetryGatewayFilterFactory factory = new UpstreamRetryGatewayFilterFactory();

	@Test
	void backoffGrowsByTheFactorUpToTheMaximum() {
		RetryConfig config = new RetryConfig().setRetries(5)
			.setMethods(HttpMethod.GET)
			.setBackoff(new BackoffConfig(Duration.ofMillis(50), Duration.ofMillis(500), 2, false));
		UpstreamRetryGatewayFilterFactory.RetryFilter filter = (UpstreamRetryGatewayFilterFactory.RetryFilter) this.factory
			.apply(config);
		assertThat(
				List.of(filter.backoff(0), filter.backoff(1), filter.backoff(2), filter.backoff(3), filter.backoff(4)))
			.containsExactly(Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(200),
					Duration.ofMillis(400), Duration.ofMillis(500));
	}

	@Test
	void noBackoffMeansRetryAtOnce() {
		RetryConfig config = new RetryConfig().setRetries(1);
		UpstreamRetryGatewayFilterFactory.RetryFilter filter = (UpstreamRetryGatewayFilterFactory.RetryFilter) this.factory
			.apply(config);
		assertThat(filter.backoff(0)).isZero();
	}

	@Test
	void jitterIsRefusedWithTheAlternativeNamed() {
		RetryConfig config = new RetryConfig().setRetries(1);
		config.setJitter(new JitterConfig(0.5));
		assertThatIllegalArgumentException().isThrownBy(() -> this.factory.apply(config))
			.withMessageContaining("GATEWAY_RETRY_FILTER=Retry");
	}

	@Test
	void takesTheFrameworksShortcutArguments() {
		assertThat(this.factory.shortcutFieldOrder()).startsWith("retries", "statuses", "methods");
	}

}
