package dev.gatewaylab.levers.retry;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.cloud.gateway.filter.factory.RetryGatewayFilterFactory.BackoffConfig;
import org.springframework.cloud.gateway.filter.factory.RetryGatewayFilterFactory.JitterConfig;
import org.springframework.cloud.gateway.filter.factory.RetryGatewayFilterFactory.RetryConfig;
import org.springframework.http.HttpMethod;

import static org.assertj.core.api.Assertions.assertThat;

class LeanRetryGatewayFilterFactoryTests {

	private final LeanRetryGatewayFilterFactory factory = new LeanRetryGatewayFilterFactory();

	@Test
	void backoffGrowsByTheFactorUpToTheMaximum() {
		RetryConfig config = new RetryConfig().setRetries(5)
			.setMethods(HttpMethod.GET)
			.setBackoff(new BackoffConfig(Duration.ofMillis(50), Duration.ofMillis(500), 2, false));
		LeanRetryGatewayFilterFactory.LeanRetryFilter filter = (LeanRetryGatewayFilterFactory.LeanRetryFilter) this.factory
			.apply(config);
		assertThat(
				List.of(filter.backoff(0), filter.backoff(1), filter.backoff(2), filter.backoff(3), filter.backoff(4)))
			.containsExactly(Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(200),
					Duration.ofMillis(400), Duration.ofMillis(500));
	}

	@Test
	void noBackoffMeansRetryAtOnce() {
		RetryConfig config = new RetryConfig().setRetries(1);
		LeanRetryGatewayFilterFactory.LeanRetryFilter filter = (LeanRetryGatewayFilterFactory.LeanRetryFilter) this.factory
			.apply(config);
		assertThat(filter.backoff(0)).isZero();
	}

	@Test
	void jitterOrARetryTimeoutIsLeftToTheFrameworksFilter() {
		RetryConfig jitter = new RetryConfig().setRetries(1);
		jitter.setJitter(new JitterConfig(0.5));
		RetryConfig timeout = new RetryConfig().setRetries(1);
		timeout.setTimeout(Duration.ofSeconds(1));
		assertThat(this.factory.apply(jitter)).isNotInstanceOf(LeanRetryGatewayFilterFactory.LeanRetryFilter.class);
		assertThat(this.factory.apply(timeout)).isNotInstanceOf(LeanRetryGatewayFilterFactory.LeanRetryFilter.class);
		assertThat(this.factory.apply(new RetryConfig().setRetries(1)))
			.isInstanceOf(LeanRetryGatewayFilterFactory.LeanRetryFilter.class);
	}

	@Test
	void takesTheFrameworksName() {
		assertThat(this.factory.name()).isEqualTo("Retry");
	}

	@Test
	void takesTheFrameworksShortcutArguments() {
		assertThat(this.factory.shortcutFieldOrder()).startsWith("retries", "statuses", "methods");
	}

}
