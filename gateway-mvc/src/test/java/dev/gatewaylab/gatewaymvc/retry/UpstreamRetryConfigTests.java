package dev.gatewaylab.gatewaymvc.retry;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class UpstreamRetryConfigTests {

	@Test
	void theBackoffDoublesFromItsFirstPauseUpToItsMaximum() {
		UpstreamRetryFilterFunctions.Config config = new UpstreamRetryFilterFunctions.Config();

		assertThat(config.backoff(0)).isEqualTo(Duration.ofMillis(50));
		assertThat(config.backoff(1)).isEqualTo(Duration.ofMillis(100));
		assertThat(config.backoff(5)).isEqualTo(Duration.ofMillis(500));
	}

	@Test
	void aBadBackoffIsRefused() {
		UpstreamRetryFilterFunctions.Config config = new UpstreamRetryFilterFunctions.Config();
		config.getBackoff().setMaxBackoff(Duration.ofMillis(10));

		assertThatIllegalArgumentException().isThrownBy(config::validate).withMessageContaining("maxBackoff");
	}

	@Test
	void aRequestWithABodyHasOneWhetherSizedOrChunked() {
		MockHttpServletRequest sized = new MockHttpServletRequest("PUT", "/");
		sized.setContent(new byte[] { 1 });
		MockHttpServletRequest chunked = new MockHttpServletRequest("PUT", "/");
		chunked.addHeader("Transfer-Encoding", "chunked");

		assertThat(UpstreamRetryFilterFunctions.hasBody(sized)).isTrue();
		assertThat(UpstreamRetryFilterFunctions.hasBody(chunked)).isTrue();
		assertThat(UpstreamRetryFilterFunctions.hasBody(new MockHttpServletRequest("GET", "/"))).isFalse();
	}

}
