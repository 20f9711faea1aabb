package dev.gatewaylab.gateway.server;

import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.PropertyResolver;
import org.springframework.util.unit.DataSize;

/**
 * The server's limits on what a client sends ({@code gateway.server.*}), read once.
 *
 * @param readTimeout a request body that stops arriving for this long → 408
 * @param requestTimeout a request body that takes longer in all → 408
 * @param maxBodyBytes larger request bodies → 413
 * @param maxHeaderCount more header lines → 431: the upstreams' limit (Tomcat's
 * maxHeaderCount, 100) less the lines the gateway adds
 * @param maxHeaderBytes a longer request line and header section, counted as an upstream
 * counts them (each line with its CRLF) → 431: the upstreams' limit (Tomcat's
 * maxHttpRequestHeaderSize, 8 KB) less what the gateway adds
 * @param lingerTime after an early answer, how long what the client still sends is read
 * and discarded before the connection is closed
 * @param lingerBytes … and how much of it at most
 */
record RequestLimits(Duration readTimeout, Duration requestTimeout, long maxBodyBytes, int maxHeaderCount,
		int maxHeaderBytes, Duration lingerTime, long lingerBytes) {

	RequestLimits {
		if (maxHeaderCount < 1 || maxHeaderBytes < 1 || lingerBytes < 0 || lingerTime.isNegative()) {
			throw new IllegalArgumentException("gateway.server limits must be positive: " + maxHeaderCount
					+ " header lines (GATEWAY_MAX_HEADER_COUNT), " + maxHeaderBytes
					+ " header bytes (GATEWAY_MAX_HEADER_SIZE), linger " + lingerTime + " (GATEWAY_LINGER_TIME) and "
					+ lingerBytes + " bytes (GATEWAY_LINGER_SIZE)");
		}
	}

	/**
	 * From the environment; strings parsed here, since the management child context has
	 * no conversion service for "500ms".
	 */
	static RequestLimits of(PropertyResolver environment) {
		return new RequestLimits(parse(environment, "read-timeout", "3s", DurationStyle::detectAndParse),
				parse(environment, "request-timeout", "30s", DurationStyle::detectAndParse),
				parse(environment, "max-body-size", "1MB", RequestLimits::bytes),
				parse(environment, "max-header-count", "95", Integer::parseInt),
				Math.toIntExact(parse(environment, "max-header-size", "7680B", RequestLimits::bytes)),
				parse(environment, "linger-time", "2s", DurationStyle::detectAndParse),
				parse(environment, "linger-size", "4MB", RequestLimits::bytes));
	}

	private static <T> T parse(PropertyResolver environment, String name, String fallback, Function<String, T> parser) {
		String value = environment.getProperty("gateway.server." + name, fallback).strip();
		try {
			return parser.apply(value);
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException(
					"gateway.server." + name + " (GATEWAY_" + name.toUpperCase(Locale.ROOT).replace('-', '_') + ") is '"
							+ value + "': " + ex.getMessage() + " (for example " + fallback + ")",
					ex);
		}
	}

	private static long bytes(String value) {
		return DataSize.parse(value).toBytes();
	}

}
