package dev.gatewaylab.runner.run;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Validation of {@code -J key=value}: whole numbers where the plans expect them, rate a
 * non-negative number, traffic one of the deny-list plan's three.
 */
public final class JMeterProperties {

	private static final Set<String> WHOLE_NUMBERS = Set.of("threads", "duration", "rampup", "port", "idMin", "idMax",
			"connectTimeout", "responseTimeout", "minMs", "maxMs", "userMin", "userMax");

	private static final Set<String> AT_LEAST_ONE = Set.of("threads", "duration", "port", "idMin", "idMax");

	private JMeterProperties() {
	}

	public static Map<String, String> validated(Map<String, String> props) {
		Map<String, String> out = new LinkedHashMap<>();
		for (Map.Entry<String, String> e : props.entrySet()) {
			String key = e.getKey().trim();
			String value = e.getValue() == null ? "" : e.getValue().trim();
			if (key.isEmpty()) {
				throw new LabException("invalid -J property: empty name", "write -J key=value, e.g. -J threads=8");
			}
			if (WHOLE_NUMBERS.contains(key)) {
				long v;
				try {
					v = Long.parseLong(value);
				}
				catch (NumberFormatException ex) {
					throw new LabException("invalid -J " + key + "=" + value + ": not a whole number",
							"use e.g. -J " + key + "=" + example(key));
				}
				long min = AT_LEAST_ONE.contains(key) ? 1 : 0;
				if (v < min) {
					throw new LabException("invalid -J " + key + "=" + value + ": must be ≥ " + min,
							"use e.g. -J " + key + "=" + example(key));
				}
			}
			if (key.equals("rate")) {
				rate(value);
			}
			if (key.equals("traffic") && !Set.of("denied", "allowed", "mixed").contains(value)) {
				throw new LabException(
						"invalid -J traffic=" + value + ": the deny-list plan sends denied, allowed or "
								+ "mixed clients",
						"use -J traffic=denied (default), -J traffic=allowed or -J traffic=mixed");
			}
			out.put(key, value);
		}
		return out;
	}

	private static void rate(String value) {
		double r;
		try {
			r = Double.parseDouble(value);
		}
		catch (NumberFormatException ex) {
			throw new LabException("invalid -J rate=" + value + ": not a number",
					"use e.g. -J rate=200 (req/s, 0 = closed model)");
		}
		if (r < 0 || Double.isNaN(r) || Double.isInfinite(r)) {
			throw new LabException("invalid -J rate=" + value + ": must be ≥ 0",
					"use e.g. -J rate=200 (req/s, 0 = closed model)");
		}
	}

	private static String example(String key) {
		return switch (key) {
			case "threads" -> "8";
			case "duration" -> "30";
			case "port" -> "8080";
			case "idMax" -> "10000";
			case "connectTimeout" -> "2000";
			case "responseTimeout" -> "10000";
			default -> "1";
		};
	}

}
