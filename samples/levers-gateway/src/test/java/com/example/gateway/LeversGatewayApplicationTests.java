package com.example.gateway;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.gateway.filter.NettyRoutingFilter;
import org.springframework.cloud.gateway.handler.RoutePredicateHandlerMapping;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LeversGatewayApplicationTests {

	@Autowired
	ApplicationContext context;

	@Test
	void theLeversAreOnWithNothingButTheDependency() {
		assertThat(this.context.getBeanNamesForType(NettyRoutingFilter.class)).isEmpty();
		assertThat(this.context.getBean(RoutePredicateHandlerMapping.class).getClass().getSimpleName())
			.isEqualTo("RouteLookupHandlerMapping");
	}

}
