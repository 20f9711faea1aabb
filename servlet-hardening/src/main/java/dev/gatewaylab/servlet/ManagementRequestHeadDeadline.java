package dev.gatewaylab.servlet;

import org.springframework.core.env.Environment;

/**
 * The request-head deadline ({@link RequestHeadDeadline}) on the management port's Tomcat
 * too: a head trickling in there held one of its connections as long as on the
 * application port. Listed in
 * {@code META-INF/spring/...ManagementContextConfiguration.imports} for the same reason
 * as {@link ManagementProblemErrorReportValve}.
 */
class ManagementRequestHeadDeadline extends RequestHeadDeadline {

	ManagementRequestHeadDeadline(Environment environment) {
		super(environment);
	}

}
