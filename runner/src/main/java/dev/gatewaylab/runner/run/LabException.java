package dev.gatewaylab.runner.run;

/**
 * A user-fixable problem: printed as one line on stderr ("error: ... — fix: ...") with
 * exit code 2.
 */
public class LabException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public LabException(String problem, String fix) {
		super(fix == null || fix.isBlank() ? problem : problem + " — " + fix);
	}

}
