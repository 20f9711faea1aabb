package dev.gatewaylab.monolith.login;

import org.apache.catalina.Manager;
import org.apache.catalina.session.ManagerBase;
import org.apache.catalina.session.StandardManager;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;

/**
 * At most {@code maxSessions} live HTTP sessions: Tomcat's own session manager refuses
 * one more ({@code maxActiveSessions}), counts the refusal
 * ({@code tomcat_sessions_rejected_sessions_total}), and {@link SessionCapFilter} answers
 * it with 503. The manager is where every session is made, whoever asks for it, so the
 * cap holds for any code path, not only the sign-in a filter would watch; its count is
 * the {@code tomcat_sessions_active_current_sessions} gauge. Like Tomcat's check, the cap
 * is a count read before a session is made: sign-ins at the very same moment can pass it
 * together, by as many as run at once.
 */
final class SessionCap implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

	private final int maxSessions;

	SessionCap(int maxSessions) {
		this.maxSessions = maxSessions;
	}

	@Override
	public void customize(TomcatServletWebServerFactory factory) {
		factory.addContextCustomizers((context) -> {
			Manager manager = context.getManager();
			if (manager == null) {
				manager = new StandardManager();
				context.setManager(manager);
			}
			if (manager instanceof ManagerBase base) {
				base.setMaxActiveSessions(this.maxSessions);
			}
		});
	}

}
