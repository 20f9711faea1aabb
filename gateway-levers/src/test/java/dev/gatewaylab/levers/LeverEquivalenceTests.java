package dev.gatewaylab.levers;

import java.util.EnumSet;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each lever against the framework's own behaviour: two gateways of the same application,
 * every lever on in one, the lever under test off in the other (the framework's component
 * in its place, every other lever still on), and every {@link Case} sent through both.
 * The client's answer (status, headers, body, whether it arrived whole), what the
 * upstream received (each attempt's request line, header lines in order and body) and the
 * exchange's attributes must be the same.
 */
@ParameterizedClass(name = "{0}, second response header filter: {1}")
@MethodSource("setups")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LeverEquivalenceTests {

	@Parameter(0)
	Lever lever;

	/**
	 * A second response header filter on both gateways: the routing lever's response
	 * headers then go through the filters, not in one pass.
	 */
	@Parameter(1)
	boolean responseHeaderFilter;

	static Stream<Arguments> setups() {
		Stream<Arguments> each = Stream.of(Lever.values()).map((lever) -> Arguments.of(lever, false));
		Stream<Arguments> filtered = Stream.of(Lever.ROUTING, Lever.HOP_BY_HOP_HEADERS)
			.map((lever) -> Arguments.of(lever, true));
		return Stream.concat(each, filtered);
	}

	TestUpstream upstream;

	TestGateway withLever;

	TestGateway framework;

	@BeforeParameterizedClassInvocation
	void startGateways() {
		this.upstream = new TestUpstream();
		Map<String, String> extra = Map.of("test.response-header-filter", Boolean.toString(this.responseHeaderFilter));
		this.withLever = new TestGateway(this.upstream, EnumSet.noneOf(Lever.class), extra);
		this.framework = new TestGateway(this.upstream, EnumSet.of(this.lever), extra);
	}

	@AfterParameterizedClassInvocation
	void stopGateways() {
		this.withLever.close();
		this.framework.close();
		this.upstream.close();
	}

	@Test
	void everyCaseGivesTheFrameworksAnswerUpstreamRequestsAndAttributes() {
		for (Case request : Case.all()) {
			Outcome expected = Outcome.of(request, this.framework, this.upstream);
			Outcome actual = Outcome.of(request, this.withLever, this.upstream);
			assertThat(actual).as("%s with the %s lever, against the framework's", request.name(), this.lever.id())
				.usingRecursiveComparison()
				.isEqualTo(expected);
		}
	}

	@Test
	void theLeverIsOffOnlyInTheFrameworksGateway() {
		assertThat(this.lever.isEnabled(this.withLever.bean(org.springframework.core.env.Environment.class))).isTrue();
		assertThat(this.lever.isEnabled(this.framework.bean(org.springframework.core.env.Environment.class))).isFalse();
	}

}
