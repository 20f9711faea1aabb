package dev.gatewaylab.monolith.login;

import jakarta.servlet.DispatcherType;

import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.authentication.SimpleUrlAuthenticationFailureHandler;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;
import org.springframework.security.web.csrf.CookieCsrfTokenRepository;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter.ReferrerPolicy;

/**
 * Two filter chains, most specific first: the stateless study API with the actuator
 * (management port), and the browser pages behind form login. No session exists before a
 * sign-in, and at most {@code MONOLITH_MAX_SESSIONS} after ({@link SessionCap}).
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
	 * Nothing makes a session before a sign-in: no request cache (it saved every
	 * anonymous GET in a new session; a sign-in always goes to {@code /}), the CSRF token
	 * in a cookie of its own (HttpOnly: the form carries the token, no script needs it),
	 * and a failed sign-in says so in {@code /login?error}, not in a session. The login
	 * limit runs after the CSRF check, so an attempt without a valid token spends
	 * nothing.
	 */
	@Bean
	@Order(2)
	SecurityFilterChain webFilterChain(HttpSecurity http, MonolithSecurityProperties properties) throws Exception {
		// Relative Location headers, so redirects keep pointing at the gateway
		// when it fronts us.
		LoginUrlAuthenticationEntryPoint loginEntryPoint = new LoginUrlAuthenticationEntryPoint("/login");
		loginEntryPoint.setFavorRelativeUris(true);
		SimpleUrlAuthenticationFailureHandler failure = new SimpleUrlAuthenticationFailureHandler("/login?error");
		failure.setAllowSessionCreation(false);
		CookieCsrfTokenRepository csrfTokens = new CookieCsrfTokenRepository();
		csrfTokens.setCookieCustomizer((cookie) -> cookie.sameSite("Lax"));
		return http
			.authorizeHttpRequests((requests) -> requests.dispatcherTypeMatchers(DispatcherType.ERROR)
				.permitAll()
				.requestMatchers("/login", "/error", "/css/**", "/js/**", "/images/**", "/favicon.ico")
				.permitAll()
				.anyRequest()
				.authenticated())
			.csrf((csrf) -> csrf.csrfTokenRepository(csrfTokens))
			.requestCache(AbstractHttpConfigurer::disable)
			.formLogin((form) -> form.loginPage("/login").defaultSuccessUrl("/", true).failureHandler(failure))
			.addFilterBefore(new LoginAttemptLimiter(properties.loginPerUser(), properties.loginWindow(), 100_000),
					UsernamePasswordAuthenticationFilter.class)
			.exceptionHandling((exceptions) -> exceptions.authenticationEntryPoint(loginEntryPoint))
			.logout((logout) -> logout.permitAll())
			// The pages use only their own CSS, no scripts, no frames:
			// a strict policy costs nothing.
			.headers((headers) -> headers.contentSecurityPolicy((csp) -> csp.policyDirectives(CONTENT_SECURITY_POLICY))
				.referrerPolicy((referrer) -> referrer.policy(ReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN)))
			.build();
	}

	@Bean
	SessionCap sessionCap(MonolithSecurityProperties properties) {
		return new SessionCap(properties.maxSessions());
	}

	/** Right before Spring Security's chain, where a sign-in makes its session. */
	@Bean
	FilterRegistrationBean<SessionCapFilter> sessionCapFilter() {
		FilterRegistrationBean<SessionCapFilter> registration = new FilterRegistrationBean<>(new SessionCapFilter());
		registration.setOrder(SecurityFilterProperties.DEFAULT_FILTER_ORDER - 1);
		return registration;
	}

	/** Before every other filter: whoever redirects, the Location stays relative. */
	@Bean
	FilterRegistrationBean<RelativeLocationFilter> relativeLocationFilter() {
		FilterRegistrationBean<RelativeLocationFilter> registration = new FilterRegistrationBean<>(
				new RelativeLocationFilter());
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		return registration;
	}

}
