package dev.gatewaylab.runner.remote;

/**
 * RMI cannot be set up as asked: a missing or unusable keystore, an address that is not
 * this machine's. The message names the problem, {@link #fix()} what to do; the commands
 * print both on one line and exit 2.
 */
public final class RmiSetupException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String fix;

	RmiSetupException(String problem, String fix) {
		super(problem);
		this.fix = fix;
	}

	public String problem() {
		return getMessage();
	}

	public String fix() {
		return fix;
	}

}
