package dev.gatewaylab.levers.routing;

import java.util.List;

import dev.gatewaylab.levers.headers.HopByHopHeaders;
import org.junit.jupiter.api.Test;

import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveHopByHopHeadersFilter;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

import static org.assertj.core.api.Assertions.assertThat;

class UpstreamResponsesTests {

	@Test
	void theOnePassIsUsedOnlyWhenTheLeanFilterIsTheOnlyResponseFilter() {
		HopByHopHeaders.LeanFilter lean = new HopByHopHeaders.LeanFilter();
		HttpHeadersFilter requestOnly = (input, exchange) -> input;
		HttpHeadersFilter responseToo = new HttpHeadersFilter() {
			@Override
			public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
				return input;
			}

			@Override
			public boolean supports(Type type) {
				return true;
			}
		};
		assertThat(UpstreamResponses.onlyHopByHop(List.of(requestOnly, lean))).isSameAs(lean);
		assertThat(UpstreamResponses.onlyHopByHop(List.of(lean, responseToo))).isNull();
		assertThat(UpstreamResponses.onlyHopByHop(List.of(new RemoveHopByHopHeadersFilter()))).isNull();
		assertThat(UpstreamResponses.onlyHopByHop(List.of(requestOnly))).isNull();
		assertThat(UpstreamResponses.onlyHopByHop(null)).isNull();
	}

}
