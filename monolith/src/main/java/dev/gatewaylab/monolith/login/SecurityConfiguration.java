package dev.gatewaylab.monolith.login;

import jakarta.servlet.DispatcherType;

import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter.ReferrerPolicy;

/**
 * Two filter chains, most specific first: the stateless study API with the actuator
 * (management port), and the browser pages behind form login.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

	static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'none'; object-src 'none'; "
			+ "frame-ancestors 'none'; form-action 'self'; base-uri 'none'";

	/**
	 * The same anonymous, stateless API as study-service — the load plans call it (POST
	 * included) without a session or CSRF token, so it must cost no more than there — and
	 * the actuator paths: only health, info and prometheus are exposed, and only on the
	 * management port; matching the path makes any other {@code /actuator/...} a plain
	 * 404 on either port instead of a login redirect.
	 */
	/**
	 * Before Spring Security's chain, so an over-budget attempt never reaches the
	 * password check.
	 */
	@Bean
	FilterRegistrationBean<LoginAttemptLimiter> loginAttemptLimiter(MonolithSecurityProperties properties) {
		FilterRegistrationBean<LoginAttemptLimiter> registration = new FilterRegistrationBean<>(
				new LoginAttemptLimiter(properties.loginPerUser(), properties.loginWindow(), 100_000));
		registration.setOrder(SecurityFilterProperties.DEFAULT_FILTER_ORDER - 1);
		return registration;
	}

	@Bean
	@Order(1)
	SecurityFilterChain apiAndActuatorFilterChain(HttpSecurity http) throws Exception {
		return http.securityMatcher("/api/**", "/actuator/**")
			.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
			.csrf(AbstractHttpConfigurer::disable)
			.sessionManagement((session) -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.requestCache(AbstractHttpConfigurer::disable)
			.build();
	}

	/**
	 * Browser pages: form login with CSRF and Spring Security's default session fixation
	 * protection (the session id changes on login). Everything not listed needs a login.
	 */
	@Bean
	@Order(2)
	SecurityFilterChain webFilterChain(HttpSecurity http) throws Exception {
		// Relative Location headers, so redirects keep pointing at the gateway
		// when it fronts us.
		LoginUrlAuthenticationEntryPoint loginEntryPoint = new LoginUrlAuthenticationEntryPoint("/login");
		loginEntryPoint.setFavorRelativeUris(true);
		return http
			.authorizeHttpRequests((requests) -> requests.dispatcherTypeMatchers(DispatcherType.ERROR)
				.permitAll()
				.requestMatchers("/login", "/error", "/css/**", "/js/**", "/images/**", "/favicon.ico")
				.permitAll()
				.anyRequest()
				.authenticated())
			.formLogin((form) -> form.loginPage("/login").defaultSuccessUrl("/", true))
			.exceptionHandling((exceptions) -> exceptions.authenticationEntryPoint(loginEntryPoint))
			.logout((logout) -> logout.permitAll())
			// The pages use only their own CSS, no scripts, no frames:
			// a strict policy costs nothing.
			.headers((headers) -> headers.contentSecurityPolicy((csp) -> csp.policyDirectives(CONTENT_SECURITY_POLICY))
				.referrerPolicy((referrer) -> referrer.policy(ReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN)))
			.build();
	}

}
