package dev.gatewaylab.runner.stats;

/** One row of a JMeter CSV result file (only the fields the reports use). */
public record JtlSample(long timeStamp, long elapsed, String label, String responseCode, String responseMessage,
		boolean success, String failureMessage, int allThreads, String threadName) {

	/**
	 * Error type as shown in reports: the response code, plus the assertion/failure
	 * message when there is one.
	 */
	public String errorType() {
		String code = responseCode == null || responseCode.isBlank() ? "no response" : responseCode;
		String msg = failureMessage == null || failureMessage.isBlank() ? responseMessage : failureMessage;
		if (msg == null || msg.isBlank()) {
			return code;
		}
		msg = msg.replaceAll("\\s+", " ").trim();
		if (msg.length() > 120) {
			msg = msg.substring(0, 117) + "...";
		}
		return code + ": " + msg;
	}
}
