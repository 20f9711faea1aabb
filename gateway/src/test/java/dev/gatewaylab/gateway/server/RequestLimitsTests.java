package dev.gatewaylab.gateway.server;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RequestLimitsTests {

	@Test
	void defaultsAreTheUpstreamsLimitsLessWhatTheGatewayAddsAndABoundedLinger() {
		RequestLimits limits = RequestLimits.of(new MockEnvironment());
		assertThat(limits.maxHeaderCount()).isEqualTo(95);
		assertThat(limits.maxHeaderBytes()).isEqualTo(7680);
		assertThat(limits.lingerTime()).isEqualTo(Duration.ofSeconds(2));
		assertThat(limits.lingerBytes()).isEqualTo(4L * 1024 * 1024);
		assertThat(limits.maxBodyBytes()).isEqualTo(1024L * 1024);
	}

	@Test
	void aBadValueNamesItsSettingAndAnExample() {
		assertThatIllegalArgumentException()
			.isThrownBy(
					() -> RequestLimits.of(new MockEnvironment().withProperty("gateway.server.linger-time", "soon")))
			.withMessageStartingWith("gateway.server.linger-time (GATEWAY_LINGER_TIME) is 'soon'")
			.withMessageEndingWith("(for example 2s)");
		assertThatIllegalArgumentException()
			.isThrownBy(
					() -> RequestLimits.of(new MockEnvironment().withProperty("gateway.server.max-header-count", "0")))
			.withMessageContaining("GATEWAY_MAX_HEADER_COUNT");
	}

}
