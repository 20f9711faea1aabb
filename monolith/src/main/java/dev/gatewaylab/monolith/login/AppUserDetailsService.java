package dev.gatewaylab.monolith.login;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.stereotype.Service;

/** Users from the monolith's own {@code app_user} table (migration V100). */
@Service
class AppUserDetailsService implements UserDetailsService {

	private final JdbcClient jdbc;

	AppUserDetailsService(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public UserDetails loadUserByUsername(String username) {
		return this.jdbc.sql("SELECT username, password, enabled FROM app_user WHERE username = ?")
			.param(username)
			.query((rs, row) -> User.withUsername(rs.getString("username"))
				.password(rs.getString("password"))
				.disabled(!rs.getBoolean("enabled"))
				.roles("USER")
				.build())
			.optional()
			.orElseThrow(() -> new UsernameNotFoundException("Unknown user"));
	}

}
