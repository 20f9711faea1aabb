package dev.gatewaylab.monolith.login;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Login settings.
 *
 * @param bcryptCost BCrypt log rounds (env {@code MONOLITH_BCRYPT_COST}); 10 costs ≈ 100
 * ms per hash on one core, so it bounds login throughput — always quote it beside a login
 * figure
 * @param loginPerUser login attempts per user name per {@code loginWindow} (env
 * {@code MONOLITH_LOGIN_PER_USER})
 * @param loginWindow the window of that budget (env {@code MONOLITH_LOGIN_WINDOW})
 * @param maxSessions live HTTP sessions at most (env {@code MONOLITH_MAX_SESSIONS}); one
 * more sign-in gets 503
 */
@ConfigurationProperties("monolith.security")
@Validated
record MonolithSecurityProperties(@DefaultValue("10") @Min(4) @Max(31) int bcryptCost,
		@DefaultValue("5") @Min(1) int loginPerUser, @DefaultValue("1m") Duration loginWindow,
		@DefaultValue("10000") @Min(1) int maxSessions) {
}
