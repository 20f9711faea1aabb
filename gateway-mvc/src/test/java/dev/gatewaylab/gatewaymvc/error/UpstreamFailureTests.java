package dev.gatewaylab.gatewaymvc.error;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;

import org.junit.jupiter.api.Test;

import org.springframework.web.client.ResourceAccessException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The WebFlux gateway's statuses for what the JDK's clients throw, through RestClient's
 * wrapper.
 */
class UpstreamFailureTests {

	@Test
	void anUpstreamThatCannotBeReachedIsUnavailable() {
		assertThat(UpstreamFailure.of(wrapped(new ConnectException()))).isEqualTo(UpstreamFailure.UNAVAILABLE);
		assertThat(UpstreamFailure.of(wrapped(new UnknownHostException("nowhere"))))
			.isEqualTo(UpstreamFailure.UNAVAILABLE);
		assertThat(UpstreamFailure.of(wrapped(new HttpConnectTimeoutException("connect timed out"))))
			.as("a connect timeout is no response timeout")
			.isEqualTo(UpstreamFailure.UNAVAILABLE);
	}

	@Test
	void noResponseWithinTheTimeoutIsATimeout() {
		assertThat(UpstreamFailure.of(wrapped(new HttpTimeoutException("request timed out"))))
			.isEqualTo(UpstreamFailure.TIMEOUT);
		assertThat(UpstreamFailure.of(wrapped(new SocketTimeoutException("Read timed out")))).as("HttpURLConnection's")
			.isEqualTo(UpstreamFailure.TIMEOUT);
	}

	@Test
	void aConnectionThatBrokeIsDropped() {
		assertThat(UpstreamFailure.of(wrapped(new IOException("HTTP/1.1 header parser received no bytes"))))
			.isEqualTo(UpstreamFailure.DROPPED);
		assertThat(UpstreamFailure.of(wrapped(new EOFException("EOF reached while reading"))))
			.isEqualTo(UpstreamFailure.DROPPED);
	}

	@Test
	void anythingElseIsNoUpstreamFailure() {
		assertThat(UpstreamFailure.of(new IllegalStateException("a bug"))).isNull();
	}

	@Test
	void theStatusesAndTitlesAreTheWebFluxGatewaysOnes() {
		assertThat(UpstreamFailure.UNAVAILABLE.status().value()).isEqualTo(503);
		assertThat(UpstreamFailure.TIMEOUT.status().value()).isEqualTo(504);
		assertThat(UpstreamFailure.DROPPED.status().value()).isEqualTo(502);
		assertThat(UpstreamFailure.TIMEOUT.title()).isEqualTo("Upstream timeout");
	}

	@Test
	void aJsonStringCannotBeBrokenOutOf() {
		assertThat(UpstreamProblemResolver.json("/a\"b\\c\u0001")).isEqualTo("/a\\\"b\\\\c\\u0001");
	}

	private static ResourceAccessException wrapped(IOException cause) {
		return new ResourceAccessException("I/O error on GET request", cause);
	}

}
