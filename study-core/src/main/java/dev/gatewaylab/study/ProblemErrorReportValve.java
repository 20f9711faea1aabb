package dev.gatewaylab.study;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat's own error page (a request Tomcat refuses before Spring sees it: an encoded
 * slash, a bad escape) as {@code application/problem+json} instead of Tomcat's HTML
 * report. Installed as the host's error report valve by {@link StudyAutoConfiguration}.
 * Server errors carry no detail.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

	@Override
	protected void report(Request request, Response response, Throwable throwable) {
		int status = response.getStatus();
		if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
			return;
		}
		byte[] body = ("{\"type\":\"about:blank\",\"status\":" + status + "}").getBytes(StandardCharsets.US_ASCII);
		try {
			response.setContentType("application/problem+json");
			response.setContentLength(body.length);
			response.getOutputStream().write(body);
			response.finishResponse();
		}
		catch (IOException | IllegalStateException ex) {
			// the client went away, or the response was already used: nothing more to say
		}
	}

}
